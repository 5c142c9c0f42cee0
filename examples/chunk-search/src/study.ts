import type { AnnotatedChunk, IndexMode, LayoutStudyResult, PassageLayout, RenderPassageOptions } from '@factkit/chunk-knowledge';
import { CHUNK_KNOWLEDGE_ANALYZER, PASSAGE_LAYOUTS, createChunkVectorRetriever, createFieldedBm25Retriever, runLayoutStudy } from '@factkit/chunk-knowledge';
import type { Embedder, Qrels } from '@factkit/core';
import { createBm25Retriever, createBm25RetrieverFactory, createDenseRetrieverFactory } from '@factkit/retrieval';

/** One table row: Top@k = share of claims with a chunk of a gold abstract in the top k; MRR@10; Avg = mean of the four Top@k (as Table 7), in %. Null when no claim could be scored. */
export interface StudyRow {
  readonly system: string;
  readonly variant: string;
  readonly layout: string;
  readonly top1: number | null;
  readonly top3: number | null;
  readonly top5: number | null;
  readonly top10: number | null;
  readonly mrr: number | null;
  readonly average: number | null;
  readonly queries: number;
}

export interface Table7Options {
  readonly items: readonly AnnotatedChunk[];
  readonly variant: string;
  readonly queries: ReadonlyArray<{ id: string; text: string }>;
  /** Abstract-level qrels: a chunk is right when its parent abstract is relevant. */
  readonly qrels: Qrels;
  readonly layouts?: readonly PassageLayout[];
  /** Dense encoder; no dense rows without it. */
  readonly embedder?: Embedder;
  readonly bm25?: boolean;
  /** Also the multi-vector rows (dense) and the fielded BM25 row (lexical). @default true */
  readonly extras?: boolean;
  /** Passage rendering (E5 delimiters `<s>` / `</s>` by default), the same for indexing and display. */
  readonly render?: RenderPassageOptions;
  readonly log?: (message: string) => void;
}

const percent = (value: number | undefined) => (value === undefined ? null : 100 * value);

function toRows(system: string, variant: string, result: LayoutStudyResult): StudyRow[] {
  return result.rows.map((row) => ({
    system,
    variant,
    layout: row.name,
    top1: percent(row.topK?.[1]),
    top3: percent(row.topK?.[3]),
    top5: percent(row.topK?.[5]),
    top10: percent(row.topK?.[10]),
    mrr: percent(row.mrr),
    average: percent(row.average),
    queries: row.queries,
  }));
}

/**
 * Table 7 for one set of annotated chunks through `runLayoutStudy` (@factkit/chunk-knowledge): BM25 (Lucene, k1 0.9,
 * b 0.4) over each layout, the fielded BM25 row, and with an embedder the dense rows per layout and the multi-vector rows.
 */
export async function runTable7(options: Table7Options): Promise<StudyRow[]> {
  const { items, variant, qrels, layouts = PASSAGE_LAYOUTS, embedder, bm25 = true, extras = true, render = {}, log } = options;
  const queries = options.queries.map((query) => ({ id: query.id, text: query.text, documentIds: Object.keys(qrels[query.id] ?? {}).filter((id) => (qrels[query.id]?.[id] ?? 0) > 0) }));
  const rows: StudyRow[] = [];
  if (bm25) {
    const factory = createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER, k1: 0.9, b: 0.4, lengthEncoding: 'exact' });
    const systems = extras ? [{ name: 'fielded(t1,q1,c1)', retriever: await createFieldedBm25Retriever(items, { factory, weights: { title: 1, questions: 1, chunk: 1 } }) }] : [];
    rows.push(...toRows('BM25', variant, await runLayoutStudy({ items, queries, layouts, render, createRetriever: (passages) => createBm25Retriever(passages), systems })));
    log?.(`${variant}: BM25 done`);
  }
  if (embedder) {
    const dense = async (name: string, mode: IndexMode, fold: 'max' | 'sum') => {
      const factory = createDenseRetrieverFactory({
        embedder,
        fold,
        batchSize: 64,
        onProgress: ({ completed, total }) => log?.(`${variant}: ${embedder.id} ${name}: embedded ${completed}/${total}`),
      });
      return createChunkVectorRetriever(items, { factory, mode, render });
    };
    const fields: Array<'title' | 'questions' | 'chunk'> = ['title', 'questions', 'chunk'];
    const systems = extras
      ? [
          { name: 'multi-vector(max)', retriever: await dense('multi-vector(max)', { multiVector: fields }, 'max') },
          { name: 'multi-vector(sum)', retriever: await dense('multi-vector(sum)', { multiVector: fields }, 'sum') },
        ]
      : [];
    rows.push(...toRows(embedder.id, variant, await runLayoutStudy({ items, queries, layouts, render, createRetriever: (_, layout) => dense(layout.name, layout, 'max'), systems })));
  }
  return rows;
}

export function formatRows(rows: readonly StudyRow[]): string {
  const lines = ['| system | annotations | layout | Top@1 | Top@3 | Top@5 | Top@10 | Avg | MRR@10 |', '|---|---|---|---:|---:|---:|---:|---:|---:|'];
  for (const row of rows) {
    lines.push(`| ${row.system} | ${row.variant} | ${row.layout} | ${[row.top1, row.top3, row.top5, row.top10, row.average, row.mrr].map((value) => (value === null ? '–' : value.toFixed(2))).join(' | ')} |`);
  }
  return lines.join('\n');
}
