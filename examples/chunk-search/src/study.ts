import type { AnnotatedChunk, PassageLayout, RenderPassageOptions } from '@factkit/chunk-knowledge';
import { CHUNK_KNOWLEDGE_ANALYZER, PASSAGE_LAYOUTS, createChunkVectorRetriever, createFieldedBm25Retriever, renderPassage } from '@factkit/chunk-knowledge';
import type { Embedder, Qrels, Retriever, Run } from '@factkit/core';
import { mapWithConcurrency } from '@factkit/core';
import { evaluateRun } from '@factkit/metrics';
import { createBm25Retriever, createBm25RetrieverFactory, createDenseRetrieverFactory } from '@factkit/retrieval';

/** One table row: Top@k = share of claims with a chunk of a gold abstract in the top k; MRR@10; Avg = mean of the four Top@k (as Table 7). */
export interface StudyRow {
  readonly system: string;
  readonly variant: string;
  readonly layout: string;
  readonly top1: number;
  readonly top3: number;
  readonly top5: number;
  readonly top10: number;
  readonly mrr: number;
  readonly average: number;
  readonly queries: number;
}

export async function runQueries(retriever: Retriever, queries: ReadonlyArray<{ id: string; text: string }>, topK = 10): Promise<Run> {
  const run: Record<string, Record<string, number>> = {};
  const results = await mapWithConcurrency(queries, (query) => retriever.retrieve({ query: { id: query.id, text: query.text }, topK }), { concurrency: 1 });
  queries.forEach((query, index) => {
    const ranking: Record<string, number> = {};
    for (const evidence of results[index]!.evidence) ranking[evidence.documentId] = evidence.score;
    run[query.id] = ranking;
  });
  return run;
}

export function scoreRun(system: string, variant: string, layout: string, qrels: Qrels, run: Run): StudyRow {
  const { aggregate, evaluatedQueries } = evaluateRun(qrels, run, { metrics: ['success_1', 'success_3', 'success_5', 'success_10', 'recip_rank'], completeQueries: true });
  const top = (k: number) => 100 * (aggregate[`success_${k}`] ?? 0);
  const row = { top1: top(1), top3: top(3), top5: top(5), top10: top(10) };
  return { system, variant, layout, ...row, mrr: 100 * (aggregate['recip_rank'] ?? 0), average: (row.top1 + row.top3 + row.top5 + row.top10) / 4, queries: evaluatedQueries.length };
}

/** BM25 (Lucene, k1 0.9, b 0.4 — @factkit/retrieval defaults) over each chunk rendered in `layout`. */
export function createLayoutBm25(items: readonly AnnotatedChunk[], layout: PassageLayout, render: RenderPassageOptions = {}): Retriever {
  return createBm25Retriever(items.map((item) => ({ id: item.chunk.id, text: renderPassage(item, layout, render) })));
}

export interface LayoutStudyOptions {
  readonly items: readonly AnnotatedChunk[];
  readonly variant: string;
  readonly queries: ReadonlyArray<{ id: string; text: string }>;
  readonly qrels: Qrels;
  readonly layouts?: readonly PassageLayout[];
  /** Dense encoder; no dense rows without it. */
  readonly embedder?: Embedder;
  readonly bm25?: boolean;
  /** Also the multi-vector rows (dense) and the fielded BM25 row (lexical). @default true */
  readonly extras?: boolean;
  /** Passage rendering (E5 delimiters `<s>` / `</s>` by default), the same for indexing and display. */
  readonly render?: RenderPassageOptions;
  readonly onProgress?: (message: string) => void;
}

/** Runs every layout (and the extras) for one set of annotated chunks and scores them. */
export async function runLayoutStudy(options: LayoutStudyOptions): Promise<StudyRow[]> {
  const { items, variant, queries, qrels, layouts = PASSAGE_LAYOUTS, embedder, bm25 = true, extras = true, render = {}, onProgress } = options;
  const rows: StudyRow[] = [];
  if (bm25) {
    for (const layout of layouts) rows.push(scoreRun('BM25', variant, layout.name, qrels, await runQueries(createLayoutBm25(items, layout, render), queries)));
    if (extras) {
      const factory = createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER, k1: 0.9, b: 0.4, lengthEncoding: 'exact' });
      const fielded = await createFieldedBm25Retriever(items, { factory, weights: { title: 1, questions: 1, chunk: 1 } });
      rows.push(scoreRun('BM25', variant, 'fielded(t1,q1,c1)', qrels, await runQueries(fielded, queries)));
    }
    onProgress?.(`${variant}: BM25 done`);
  }
  if (embedder) {
    const modes: Array<{ name: string; mode: PassageLayout | { multiVector: Array<'title' | 'questions' | 'chunk'> }; fold?: 'max' | 'sum' }> = layouts.map((layout) => ({ name: layout.name, mode: layout }));
    if (extras) {
      modes.push({ name: 'multi-vector(max)', mode: { multiVector: ['title', 'questions', 'chunk'] }, fold: 'max' });
      modes.push({ name: 'multi-vector(sum)', mode: { multiVector: ['title', 'questions', 'chunk'] }, fold: 'sum' });
    }
    for (const { name, mode, fold } of modes) {
      const factory = createDenseRetrieverFactory({
        embedder,
        fold: fold ?? 'max',
        batchSize: 64,
        onProgress: ({ completed, total }) => onProgress?.(`${variant}: ${embedder.id} ${name}: embedded ${completed}/${total}`),
      });
      const retriever = await createChunkVectorRetriever(items, { factory, mode, render });
      rows.push(scoreRun(embedder.id, variant, name, qrels, await runQueries(retriever, queries)));
    }
  }
  return rows;
}

export function formatRows(rows: readonly StudyRow[]): string {
  const lines = ['| system | annotations | layout | Top@1 | Top@3 | Top@5 | Top@10 | Avg | MRR@10 |', '|---|---|---|---:|---:|---:|---:|---:|---:|'];
  for (const row of rows) {
    lines.push(`| ${row.system} | ${row.variant} | ${row.layout} | ${[row.top1, row.top3, row.top5, row.top10, row.average, row.mrr].map((value) => value.toFixed(2)).join(' | ')} |`);
  }
  return lines.join('\n');
}
