// The FastTrack index of one corpus, saved under out/ and reloaded on the next run, and the embedding-similarity
// ranking computed from the index's own document vectors.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeL2, type Document, type Embedder, type Progress } from '@factkit/core';
import { buildFastTrackIndex, createClassTfidfLabeller, createLlmKeywordLabeller, deserializeFastTrackIndex, serializeFastTrackIndex, type FastTrackIndex } from '@factkit/fasttrack';
import type { StudyOptions } from './study.js';

/** Loads the saved index for this corpus and labeller, or builds and saves it (progress on `log`). */
export async function loadOrBuildIndex(documents: readonly Document[], options: StudyOptions, labellerName: 'c-tf-idf' | 'llm', timings: Record<string, number>, seedOffset = 0, reuse?: FastTrackIndex): Promise<FastTrackIndex> {
  const suffix = seedOffset ? `-seed+${seedOffset}` : '';
  const path = join(options.outDir, `index-${options.name}-${options.embedder.id.replace(/[^\w.-]+/g, '_')}-${labellerName}${suffix}.ftix`);
  if (existsSync(path)) {
    const started = performance.now();
    const index = await deserializeFastTrackIndex(new Uint8Array(readFileSync(path)), { source: path });
    timings[`load index (${labellerName})`] = performance.now() - started;
    options.log?.(`loaded ${path}`);
    return index;
  }
  // Reuse the embeddings of an index saved with the other labeller (embedding is the slow stage).
  const other = join(options.outDir, `index-${options.name}-${options.embedder.id.replace(/[^\w.-]+/g, '_')}-${labellerName === 'llm' ? 'c-tf-idf' : 'llm'}.ftix`);
  let embeddings: Float32Array[] | undefined;
  if (reuse) {
    embeddings = Array.from({ length: reuse.embeddings.rows }, (_, row) => reuse.embeddings.data.slice(row * reuse.embeddings.dimensions, (row + 1) * reuse.embeddings.dimensions));
  } else if (existsSync(other)) {
    const saved = await deserializeFastTrackIndex(new Uint8Array(readFileSync(other)), { source: other });
    embeddings = Array.from({ length: saved.embeddings.rows }, (_, row) => saved.embeddings.data.slice(row * saved.embeddings.dimensions, (row + 1) * saved.embeddings.dimensions));
  }
  const labeller = labellerName === 'llm' && options.llm ? createLlmKeywordLabeller({ model: options.llm }) : createClassTfidfLabeller();
  let lastLine = 0;
  const onProgress = ({ stage, completed, total }: Progress) => {
    const now = performance.now();
    if (now - lastLine > 2000 || completed === total) {
      lastLine = now;
      options.log?.(`  ${stage}: ${completed}/${total}`);
    }
  };
  const built = await buildFastTrackIndex(documents, { ...(embeddings ? { embeddings, embedderId: options.embedder.id } : { embedder: options.embedder }), labeller, seed: (options.seed ?? 0) + seedOffset, onProgress });
  for (const [stage, ms] of Object.entries(built.timings)) timings[`${stage} (${labellerName}${suffix})`] = ms;
  options.log?.(`built index: ${built.index.tree.leaves.length} leaves; embed ${(built.timings.embed / 1000).toFixed(1)} s, cluster ${(built.timings.cluster / 1000).toFixed(1)} s, label ${(built.timings.label / 1000).toFixed(1)} s`);
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(path, await serializeFastTrackIndex(built.index));
  return built.index;
}

/** Embedding-similarity ranking of the whole corpus for each query (cosine over the index's own document vectors). */
export async function embeddingRankings(index: FastTrackIndex, embedder: Embedder, claims: readonly string[], documents: readonly Document[]): Promise<string[][]> {
  const { embeddings: queryVectors } = await embedder.embed({ texts: claims, kind: 'query' });
  const { rows, dimensions, data } = index.embeddings;
  const normalized = new Float32Array(data.length);
  for (let row = 0; row < rows; row++) normalized.set(normalizeL2(data.subarray(row * dimensions, (row + 1) * dimensions)), row * dimensions);
  return queryVectors.map((vector) => {
    const query = normalizeL2(vector);
    const scores = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      let dot = 0;
      for (let column = 0; column < dimensions; column++) dot += (normalized[row * dimensions + column] as number) * (query[column] as number);
      scores[row] = dot;
    }
    return Array.from(scores.keys())
      .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
      .slice(0, 100)
      .map((row) => (documents[row] as Document).id);
  });
}
