import type { Document, ProgressCallback, Retriever, ItemProblem } from '@factkit/core';
import { InvalidArgumentError, isAbortReason } from '@factkit/core';
import type { PassageLayout, RenderPassageOptions } from '../indexing/layouts.js';
import { PASSAGE_LAYOUTS, renderPassage } from '../indexing/layouts.js';
import type { AnnotatedChunk } from '../knowledge/types.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

const WHERE = 'runLayoutStudy';

/** A test query and the ids of the documents that answer it (a chunk of one of them is a hit). */
export interface LayoutStudyQuery {
  readonly id?: string;
  readonly text: string;
  readonly documentIds: readonly string[];
}

/** A system scored beside the layouts, already built over the chunk ids (fielded BM25, a multi-vector index, …). */
export interface LayoutStudySystem {
  readonly name: string;
  readonly retriever: Retriever;
}

export interface LayoutStudyOptions {
  /** The annotated chunks (the knowledge store); passages are identified by chunk id. */
  readonly items: readonly AnnotatedChunk[];
  readonly queries: readonly LayoutStudyQuery[];
  /** @default PASSAGE_LAYOUTS (the paper's Cases 1–7) */
  readonly layouts?: readonly PassageLayout[];
  /** How each chunk is rendered for every layout. @default renderPassage's defaults (E5 `<s>` / `</s>`) */
  readonly render?: RenderPassageOptions;
  /**
   * Builds the retriever of one layout over its passages (id = chunk id, text = the rendered chunk), e.g. BM25 or a
   * dense index; the caller wires the concrete retriever. Without it only `systems` are scored.
   */
  readonly createRetriever?: (passages: readonly Document[], layout: PassageLayout) => Retriever | Promise<Retriever>;
  readonly systems?: readonly LayoutStudySystem[];
  /** Top@k cutoffs (the paper's Table 7: 1, 3, 5, 10); MRR is taken over the deepest. @default [1, 3, 5, 10] */
  readonly ks?: readonly number[];
  /** Called per query of each system (core `Progress`; `stage`, always set, is the system's name). */
  readonly onProgress?: ProgressCallback;
  readonly abortSignal?: AbortSignal;
}

/** One row: a layout (or a system) and its scores over the queries that could be scored. */
export interface LayoutStudyRow {
  /** The layout's name, or the system's. */
  readonly name: string;
  readonly layout?: PassageLayout;
  /** k → share of scored queries with a chunk of a gold document in the top k; absent when no query was scored. */
  readonly topK?: Readonly<Record<number, number>>;
  /** Mean reciprocal rank of the first right chunk within the deepest k (0 when none); absent with no query scored. */
  readonly mrr?: number;
  /** Mean of the Top@k values (the paper's Avg); absent with no query scored. */
  readonly average?: number;
  /** Queries scored (retrieval answered). */
  readonly queries: number;
  /** Scored queries with no right chunk in the deepest k. */
  readonly misses: readonly LayoutStudyQuery[];
  /** Queries whose retrieval failed: left out of every number of this row. */
  readonly problems: readonly ItemProblem<ChunkKnowledgeProblemCode>[];
}

export interface LayoutStudyResult {
  readonly rows: readonly LayoutStudyRow[];
  readonly ks: readonly number[];
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

function validate(options: LayoutStudyOptions): readonly number[] {
  const { items, queries, layouts = PASSAGE_LAYOUTS, createRetriever, systems = [], ks = [1, 3, 5, 10] } = options ?? ({} as LayoutStudyOptions);
  if (!Array.isArray(items)) throw new InvalidArgumentError({ where: WHERE, argument: 'items', message: 'must be an array of annotated chunks' });
  if (!Array.isArray(queries) || queries.some((query) => typeof query?.text !== 'string' || query.text.trim() === '' || !Array.isArray(query.documentIds))) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'queries', message: 'must be an array of { text, documentIds } with non-empty text' });
  }
  if (!Array.isArray(layouts)) throw new InvalidArgumentError({ where: WHERE, argument: 'layouts', message: 'must be an array of passage layouts' });
  if (createRetriever !== undefined && typeof createRetriever !== 'function') throw new InvalidArgumentError({ where: WHERE, argument: 'createRetriever', message: 'must be a function (passages, layout) => Retriever' });
  if (!Array.isArray(systems) || systems.some((system) => typeof system?.retriever?.retrieve !== 'function')) throw new InvalidArgumentError({ where: WHERE, argument: 'systems', message: 'must be an array of { name, retriever }' });
  if (!Array.isArray(ks) || ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1) || new Set(ks).size !== ks.length) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'ks', message: `must be distinct positive integers (got ${JSON.stringify(ks)})` });
  }
  return [...ks].sort((a, b) => a - b);
}

/** Scores one retriever: for each query, the rank of the first chunk whose parent document is gold. */
async function scoreRetriever(options: LayoutStudyOptions, ks: readonly number[], name: string, retriever: Retriever, documentOf: ReadonlyMap<string, string>): Promise<Omit<LayoutStudyRow, 'name' | 'layout'>> {
  const { queries, abortSignal, onProgress } = options;
  const deepest = ks[ks.length - 1] as number;
  const ranks: number[] = [];
  const misses: LayoutStudyQuery[] = [];
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
  for (const [position, query] of queries.entries()) {
    onProgress?.({ stage: name, completed: position, total: queries.length });
    let evidence;
    try {
      ({ evidence } = await retriever.retrieve({ query: { ...(query.id === undefined ? {} : { id: query.id }), text: query.text }, topK: deepest, ...(abortSignal ? { abortSignal } : {}) }));
    } catch (error) {
      if (isAbortReason(error, abortSignal)) throw error;
      problems.push({ index: position, ...(query.id === undefined ? {} : { id: query.id }), code: 'retrieval-failed', message: errorMessage(error) });
      continue;
    }
    const gold = new Set(query.documentIds);
    const first = evidence.slice(0, deepest).findIndex((hit) => gold.has(documentOf.get(hit.documentId) ?? ''));
    ranks.push(first);
    if (first < 0) misses.push(query);
  }
  onProgress?.({ stage: name, completed: queries.length, total: queries.length });
  if (ranks.length === 0) return { queries: 0, misses, problems };
  const topK = Object.fromEntries(ks.map((k) => [k, ranks.filter((rank) => rank >= 0 && rank < k).length / ranks.length]));
  const mrr = ranks.reduce((sum, rank) => sum + (rank >= 0 ? 1 / (rank + 1) : 0), 0) / ranks.length;
  const average = ks.reduce((sum, k) => sum + (topK[k] as number), 0) / ks.length;
  return { topK, mrr, average, queries: ranks.length, misses, problems };
}

/**
 * The paper's Table 7 as a function: every annotated chunk is rendered in each passage layout (title, candidate
 * questions, chunk in the layout's order), `createRetriever` indexes the passages, and each query is a hit at k when
 * one of the top k passages is a chunk of one of its gold documents (Top@k), with MRR and the mean of the Top@k
 * (Avg). `systems` (e.g. fielded BM25, multi-vector dense) are scored the same way. A query whose retrieval fails is
 * left out of that row and reported in its `problems`; a row with no scored query has no numbers.
 * @throws InvalidArgumentError for invalid options; the abort reason when aborted.
 */
export async function runLayoutStudy(options: LayoutStudyOptions): Promise<LayoutStudyResult> {
  const ks = validate(options);
  const { items, layouts = PASSAGE_LAYOUTS, render = {}, createRetriever, systems = [], abortSignal } = options;
  abortSignal?.throwIfAborted();
  const documentOf = new Map(items.map((item) => [item.chunk.id, item.chunk.documentId]));
  const rows: LayoutStudyRow[] = [];
  if (createRetriever) {
    for (const layout of layouts) {
      const passages = items.map((item) => ({ id: item.chunk.id, text: renderPassage(item, layout, render) }));
      const retriever = await createRetriever(passages, layout);
      rows.push({ name: layout.name, layout, ...(await scoreRetriever(options, ks, layout.name, retriever, documentOf)) });
    }
  }
  for (const system of systems) rows.push({ name: system.name, ...(await scoreRetriever(options, ks, system.name, system.retriever, documentOf)) });
  return { rows, ks };
}
