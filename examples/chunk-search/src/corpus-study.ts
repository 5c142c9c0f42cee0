// Table 7 on one corpus: chunk the abstracts, annotate them offline (and with a model when OPENAI_BASE_URL is set),
// and score every passage layout with BM25 (and USE-lite when `dense`).
import type { AnnotatedChunk, Chunker, createOfflineAnnotator } from '@factkit/chunk-knowledge';
import { CHUNK_KNOWLEDGE_ANALYZER, PASSAGE_LAYOUTS, chunkDocuments, filterQuestionsByRelevance } from '@factkit/chunk-knowledge';
import { withEmbeddingCache, type Document, type Embedder } from '@factkit/core';
import { createBm25RetrieverFactory } from '@factkit/retrieval';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { annotateWithModel } from './model-annotations.js';
import type { SciFactData } from './scifact.js';
import { runTable7, type StudyRow } from './study.js';
import { createVectorFileCache } from './vector-file-cache.js';

export interface CorpusStudyOptions {
  /** Names the corpus in the rows and notes, e.g. 'all claims, gold+200'. */
  readonly name: string;
  readonly claims: SciFactData;
  readonly documents: readonly Document[];
  readonly chunker: Chunker;
  readonly annotator: ReturnType<typeof createOfflineAnnotator>;
  /** Doc2Query-- drops the questions below this percentile of BM25 relevance to their chunk. */
  readonly percentile: number;
  /** USE-lite rows too (embeddings cached under `cacheDirectory`/use-lite). */
  readonly dense: boolean;
  /** The model rows too, when OPENAI_BASE_URL is set (calls cached under `cacheDirectory`/llm). */
  readonly withModel: boolean;
  readonly cacheDirectory: string;
  readonly concurrency: number;
  readonly log: (message: string) => void;
  readonly progress: (message: string) => void;
}

export interface CorpusStudy {
  readonly rows: StudyRow[];
  readonly notes: string[];
  /** One line describing the corpus (claims, abstracts, chunks, chunking problems). */
  readonly subset: string;
  /** True when a model call failed: the model rows leave those chunks out. */
  readonly incomplete: boolean;
}

export async function studyCorpus(options: CorpusStudyOptions): Promise<CorpusStudy> {
  const { name, claims, documents, chunker, annotator, percentile, dense, withModel, cacheDirectory, concurrency, log, progress } = options;
  const rows: StudyRow[] = [];
  const notes: string[] = [];
  let incomplete = false;
  const { chunks, problems } = chunkDocuments(documents, { chunker });
  const subset = `${name}: ${claims.queries.length} claims, ${documents.length} abstracts -> ${chunks.length} chunks (${problems.length} chunking problems: ${[...new Set(problems.map((p) => p.code))].join(', ') || 'none'})`;
  log(subset);
  const started = performance.now();
  const offline: AnnotatedChunk[] = chunks.map((chunk) => annotator.annotate(chunk));
  log(`${name}: offline annotation of ${chunks.length} chunks in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  const filtered = await filterQuestionsByRelevance(offline, { scorer: { factory: createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER, k1: 1.2, b: 0.75, lengthEncoding: 'exact' }) }, percentile });
  notes.push(`${name}: Doc2Query-- (BM25 relevance, percentile ${percentile}) dropped ${filtered.droppedCount} of ${filtered.droppedCount + filtered.keptCount} offline questions (threshold ${filtered.threshold.toFixed(3)}).`);
  let embedder: Embedder | undefined;
  let cache: ReturnType<typeof createVectorFileCache> | undefined;
  if (dense) {
    const useLite = createUseLiteEmbedder({ backend: 'auto' }); // onnx when onnxruntime-node loads, else wasm
    cache = createVectorFileCache(`${cacheDirectory}/use-lite`, useLite.dimensions);
    embedder = withEmbeddingCache(useLite, cache);
    const flush = setInterval(() => cache?.flush(), 30_000);
    flush.unref();
  }
  const common = { queries: claims.queries, qrels: claims.qrels, log: progress, ...(embedder ? { embedder } : {}) };
  rows.push(...(await runTable7({ ...common, items: offline, variant: `${name} offline baseline` })));
  if (dense) {
    // Diagnostic: the same passages without E5's <s> / </s> delimiters, which a non-E5 encoder reads as noise.
    const plain = PASSAGE_LAYOUTS.filter((layout) => layout.name === 'case-1' || layout.name === 'case-6');
    rows.push(...(await runTable7({ ...common, items: offline, variant: `${name} offline baseline, no <s> delimiters`, layouts: plain, extras: false, render: { open: '', close: '' } })));
  }
  const questionLayouts = PASSAGE_LAYOUTS.filter((layout) => layout.fields.includes('questions'));
  rows.push(...(await runTable7({ ...common, items: filtered.items, variant: `${name} offline + Doc2Query--`, layouts: questionLayouts, extras: false })));
  cache?.flush();

  if (withModel && process.env['OPENAI_BASE_URL']) {
    const model = await annotateWithModel(chunks, { cacheDirectory: `${cacheDirectory}/llm`, concurrency, log: progress });
    const annotated = model.outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
    const failed = model.outcomes.flatMap((outcome) => (outcome.status === 'failed' ? [outcome] : []));
    notes.push(`${name}: model ${model.modelId}: ${annotated.length} chunks annotated, ${failed.length} failed, ${model.problemCount} per-field problems.`);
    if (failed.length > 0) {
      incomplete = true;
      notes.push(`${name}: INCOMPLETE: ${failed.length} chunk(s) failed (first: ${failed[0]!.problems[0]?.id}: ${failed[0]!.problems[0]?.message}); the model rows below leave these chunks out of the index.`);
    }
    rows.push(...(await runTable7({ ...common, items: annotated, variant: `${name} model ${model.modelId}` })));
    cache?.flush();
  }
  return { rows, notes, subset, incomplete };
}
