import { assertNonEmptyString, type Document, type Embedder, embedInBatches, type GenerationProvenance, InvalidArgumentError, type ProgressCallback, throwIfAborted, type ItemProblem } from '@factkit/core';
import { addToClusterTree, buildClusterTree, type ClusterTree } from '../clustering/cluster-tree.js';
import type { KMeansEngine } from '../clustering/compute-kmeans.js';
import { packVectors, type VectorMatrix } from '../clustering/vector-matrix.js';
import type { KeywordLabeller, LabelCluster } from '../labels/keyword-labeller.js';
import type { FastTrackProblemCode } from '../problem-codes.js';

/** Keywords of one leaf as stored in the index. */
export interface LeafLabel {
  readonly keywords: readonly string[];
  readonly status: 'ok' | 'failed';
  readonly problems: readonly ItemProblem<FastTrackProblemCode>[];
  readonly provenance?: GenerationProvenance;
}

/** The offline stage's output: documents, their embeddings, the cluster tree and leaf keywords. Save it with `serializeFastTrackIndex`. */
export interface FastTrackIndex {
  readonly embedderId: string;
  readonly labellerId: string;
  readonly documents: readonly Document[];
  readonly embeddings: VectorMatrix;
  readonly tree: ClusterTree;
  /** Keywords by leaf node id; a leaf without an entry is unlabelled (its label call failed, or it is new). */
  readonly labels: ReadonlyMap<number, LeafLabel>;
}

/** Offline stages, as reported to `onProgress`. */
export type IndexStage = 'embed' | 'cluster' | 'label';

export interface BuildFastTrackIndexOptions {
  /** Embeds the documents (kind 'passage'). Not needed when `embeddings` are given. */
  readonly embedder?: Embedder;
  /** Precomputed document embeddings (one per document), e.g. to build several clusterings for an ensemble. */
  readonly embeddings?: readonly Float32Array[];
  /** Id stored with precomputed embeddings. @default embedder.id, else 'precomputed' */
  readonly embedderId?: string;
  readonly labeller: KeywordLabeller;
  /** @default 10 */
  readonly k?: number;
  /** The paper's c. @default 100 */
  readonly maxLeafSize?: number;
  /** @default 0 */
  readonly seed?: number;
  /** @default 'lloyd' */
  readonly engine?: KMeansEngine;
  /** Texts per `embed` call. @default embedder.maxBatchSize ?? 64 */
  readonly embedBatchSize?: number;
  /** Concurrent `embed` calls. @default 1 */
  readonly embedConcurrency?: number;
  /** Core `Progress` of the current offline stage; `stage` is always set ('embed', 'cluster', then 'label'). */
  readonly onProgress?: ProgressCallback<IndexStage>;
  readonly abortSignal?: AbortSignal;
}

export interface BuildFastTrackIndexResult {
  readonly index: FastTrackIndex;
  /** Wall time of each stage in milliseconds. */
  readonly timings: Readonly<Record<IndexStage, number>>;
  /** `empty-text`, `duplicate-text` (per document), and per-leaf label problems (`id` = leaf id). */
  readonly problems: ItemProblem<FastTrackProblemCode>[];
}

function checkDocuments(documents: readonly Document[], where: string, existing?: ReadonlySet<string>): ItemProblem<FastTrackProblemCode>[] {
  if (!Array.isArray(documents)) throw new InvalidArgumentError({ where, argument: 'documents', message: 'must be an array' });
  const ids = new Set(existing);
  const texts = new Map<string, number>();
  const problems: ItemProblem<FastTrackProblemCode>[] = [];
  documents.forEach((document, index) => {
    assertNonEmptyString(`documents[${index}].id`, document?.id, where);
    if (typeof document.text !== 'string') throw new InvalidArgumentError({ where, argument: `documents[${index}].text`, message: 'must be a string' });
    if (ids.has(document.id)) throw new InvalidArgumentError({ where, argument: `documents[${index}].id`, message: `duplicates id "${document.id}"` });
    ids.add(document.id);
    if (document.text.trim().length === 0) problems.push({ index, id: document.id, code: 'empty-text', message: 'the document text is empty; it is indexed but can match nothing by keywords' });
    const first = texts.get(document.text);
    if (first !== undefined) problems.push({ index, id: document.id, code: 'duplicate-text', message: `same text as documents[${first}]` });
    else texts.set(document.text, index);
  });
  return problems;
}

async function embedDocuments(documents: readonly Document[], options: BuildFastTrackIndexOptions, where: string): Promise<Float32Array[]> {
  const { embedder, embeddings, onProgress, abortSignal } = options;
  if (embeddings) {
    if (embeddings.length !== documents.length) throw new InvalidArgumentError({ where, argument: 'embeddings', message: `must hold one vector per document (${documents.length}; got ${embeddings.length})` });
    return [...embeddings];
  }
  if (!embedder) throw new InvalidArgumentError({ where, argument: 'embedder', message: 'is required when no embeddings are given' });
  const batchSize = options.embedBatchSize ?? embedder.maxBatchSize ?? 64;
  const texts = documents.map((document) => document.text);
  const vectors: Float32Array[] = [];
  // Chunks of a few batches, so progress shows while embedInBatches keeps its concurrency inside each chunk.
  const chunk = batchSize * Math.max(1, options.embedConcurrency ?? 1) * 4;
  for (let start = 0; start < texts.length; start += chunk) {
    throwIfAborted(abortSignal);
    const part = await embedInBatches(embedder, texts.slice(start, start + chunk), { kind: 'passage', batchSize, concurrency: options.embedConcurrency ?? 1, ...(abortSignal ? { abortSignal } : {}) });
    vectors.push(...part);
    onProgress?.({ stage: 'embed', completed: vectors.length, total: texts.length });
  }
  return vectors;
}

/** Label clusters of every leaf of `tree` for `labeller` (all leaves are the classes; `targets` are labelled). */
export function leafClusters(tree: ClusterTree, documents: readonly Document[]): LabelCluster[] {
  return tree.leaves.map((leafId) => ({ leafId, texts: (tree.nodes[leafId]?.members ?? []).map((row) => (documents[row] as Document).text) }));
}

async function labelLeaves(
  tree: ClusterTree,
  documents: readonly Document[],
  labeller: KeywordLabeller,
  targets: readonly number[] | undefined,
  options: Pick<BuildFastTrackIndexOptions, 'onProgress' | 'abortSignal'>,
): Promise<{ labels: Map<number, LeafLabel>; problems: ItemProblem<FastTrackProblemCode>[] }> {
  const clusters = leafClusters(tree, documents);
  const positions = targets ? targets.map((leafId) => tree.leaves.indexOf(leafId)) : undefined;
  const results = await labeller.label({
    clusters,
    ...(positions ? { targets: positions } : {}),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    onProgress: ({ completed, total, failed }) => options.onProgress?.({ stage: 'label', completed, total, ...(failed === undefined ? {} : { failed }) }),
  });
  const labels = new Map<number, LeafLabel>();
  const problems: ItemProblem<FastTrackProblemCode>[] = [];
  for (const result of results) {
    labels.set(result.leafId, { keywords: result.keywords, status: result.status, problems: result.problems, ...(result.provenance ? { provenance: result.provenance } : {}) });
    for (const problem of result.problems) problems.push({ ...problem, id: `leaf:${result.leafId}` });
  }
  return { labels, problems };
}

/**
 * The paper's offline stage: embed the corpus, cluster it recursively (k = 10, c = 100) and label every leaf with
 * keywords. Reports each stage's wall time and progress (core `Progress` with its `stage`).
 * @throws InvalidArgumentError for bad documents (missing/duplicate ids), a missing embedder or mismatched embeddings.
 */
export async function buildFastTrackIndex(documents: readonly Document[], options: BuildFastTrackIndexOptions): Promise<BuildFastTrackIndexResult> {
  const where = 'buildFastTrackIndex';
  const problems = checkDocuments(documents, where);
  if (documents.length === 0) throw new InvalidArgumentError({ where, argument: 'documents', message: 'must not be empty' });
  const { labeller, k = 10, maxLeafSize = 100, seed = 0, engine = 'lloyd', onProgress, abortSignal } = options;
  if (!labeller || typeof labeller.label !== 'function') throw new InvalidArgumentError({ where, argument: 'labeller', message: 'must be a KeywordLabeller' });
  const timings: Record<IndexStage, number> = { embed: 0, cluster: 0, label: 0 };
  let started = performance.now();
  const vectors = await embedDocuments(documents, options, where);
  const embeddings = packVectors(vectors, where);
  timings.embed = performance.now() - started;
  started = performance.now();
  const tree = buildClusterTree(embeddings, { k, maxLeafSize, seed, engine, ...(abortSignal ? { abortSignal } : {}), ...(onProgress ? { onProgress } : {}) });
  timings.cluster = performance.now() - started;
  started = performance.now();
  const labelled = await labelLeaves(tree, documents, labeller, undefined, { ...(onProgress ? { onProgress } : {}), ...(abortSignal ? { abortSignal } : {}) });
  timings.label = performance.now() - started;
  const embedderId = options.embedderId ?? options.embedder?.id ?? 'precomputed';
  return { index: { embedderId, labellerId: labeller.id, documents: [...documents], embeddings, tree, labels: labelled.labels }, timings, problems: [...problems, ...labelled.problems] };
}

export interface FastTrackAddDocumentsOptions extends Omit<BuildFastTrackIndexOptions, 'k' | 'maxLeafSize' | 'seed'> {}

export interface AddDocumentsResult {
  readonly index: FastTrackIndex;
  /** Leaves that were split because they grew past c. */
  readonly splitLeaves: readonly number[];
  /** Leaves labelled in this call (the new ones). */
  readonly labelledLeaves: readonly number[];
  readonly problems: ItemProblem<FastTrackProblemCode>[];
}

/**
 * Adds documents to an index: each goes to the leaf with the nearest centroid; a leaf that grows past c is split
 * again and its new leaves are labelled with `labeller`. Leaves that only grew keep their keywords. Returns a new
 * index; the input is unchanged.
 * @throws InvalidArgumentError for bad or duplicate documents, or embeddings of the wrong size.
 */
export async function addDocumentsToIndex(index: FastTrackIndex, documents: readonly Document[], options: FastTrackAddDocumentsOptions): Promise<AddDocumentsResult> {
  const where = 'addDocumentsToIndex';
  const problems = checkDocuments(documents, where, new Set(index.documents.map((document) => document.id)));
  if (documents.length === 0) return { index, splitLeaves: [], labelledLeaves: [], problems };
  const vectors = await embedDocuments(documents, options, where);
  const added = packVectors(vectors, where);
  if (added.dimensions !== index.embeddings.dimensions) throw new InvalidArgumentError({ where, argument: 'embeddings', message: `have ${added.dimensions} dimensions, the index ${index.embeddings.dimensions}` });
  const data = new Float32Array(index.embeddings.data.length + added.data.length);
  data.set(index.embeddings.data);
  data.set(added.data, index.embeddings.data.length);
  const embeddings: VectorMatrix = { rows: index.embeddings.rows + added.rows, dimensions: added.dimensions, data };
  const grown = addToClusterTree(index.tree, embeddings, { fromRow: index.embeddings.rows, ...(options.engine ? { engine: options.engine } : {}) });
  const allDocuments = [...index.documents, ...documents];
  const labels = new Map(index.labels);
  for (const leaf of grown.splitLeaves) labels.delete(leaf);
  let labelledLeaves: number[] = [];
  if (grown.newLeaves.length > 0) {
    const labelled = await labelLeaves(grown.tree, allDocuments, options.labeller, grown.newLeaves, {
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    for (const [leaf, label] of labelled.labels) labels.set(leaf, label);
    problems.push(...labelled.problems);
    labelledLeaves = grown.newLeaves;
  }
  return { index: { ...index, documents: allDocuments, embeddings, tree: grown.tree, labels }, splitLeaves: grown.splitLeaves, labelledLeaves, problems };
}
