import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { createBm25Index } from '../bm25/bm25-index.js';
import { createBm25Retriever } from '../bm25/bm25-retriever.js';
import type { DenseIndexSnapshot } from '../dense/dense-serialization.js';
import { restoreDenseRetriever } from '../dense/dense-serialization.js';
import { createHybridRetriever } from '../fusion/hybrid-retriever.js';
import { saveBm25Index } from './bm25-files.js';
import { HYBRID_MANIFEST_FILE, loadDenseIndex, loadHybridIndex, saveDenseIndex, saveHybridIndex } from './dense-files.js';

const directory = mkdtempSync(join(tmpdir(), 'factkit-dense-io-'));
const documents = [
  { id: 'a', text: 'cats purr on the sofa' },
  { id: 'b', text: 'dogs bark at the mailman' },
  { id: 'c', text: 'fish swim in the pond' },
];

async function denseSnapshot(): Promise<DenseIndexSnapshot> {
  const embedder = createMockEmbedder({ dimensions: 16 });
  const { embeddings } = await embedder.embed({ texts: documents.map((d) => d.text), kind: 'passage' });
  const vectors = new Float32Array(documents.length * 16);
  embeddings.forEach((vector, row) => vectors.set(vector, row * 16));
  return { embedderId: embedder.id, dimensions: 16, metric: 'cosine', ids: documents.map((d) => d.id), vectors, documents: documents.map((d) => ({ text: d.text })) };
}

describe('dense and hybrid index files', () => {
  it('a failed save (the path is an existing directory) removes its temporary file (issue 21 §11)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'factkit-failed-save-'));
    const target = join(folder, 'existing');
    mkdirSync(target);
    await expect(saveDenseIndex(await denseSnapshot(), target)).rejects.toThrow(/EISDIR|directory/);
    const bm25 = createBm25Index();
    bm25.addDocuments(documents);
    await expect(saveBm25Index(bm25, target)).rejects.toThrow(/EISDIR|directory/);
    expect(readdirSync(folder)).toEqual(['existing']);
  });

  it('saves and loads a dense index; damage and missing files are typed errors naming the path', async () => {
    const snapshot = await denseSnapshot();
    const path = join(directory, 'x.dense');
    await saveDenseIndex(snapshot, path);
    const loaded = await loadDenseIndex(path);
    expect(loaded.ids).toEqual(snapshot.ids);
    expect(Array.from(loaded.vectors)).toEqual(Array.from(snapshot.vectors));
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 5));
    await expect(loadDenseIndex(path)).rejects.toSatisfy((error: unknown) => CorruptDataError.isInstance(error) && (error as Error).message.startsWith(path));
    await expect(loadDenseIndex(join(directory, 'missing.dense'))).rejects.toThrow(InvalidArgumentError);
  });

  it('a hybrid folder round-trips: the loaded parts fuse to the same ranking as the in-memory ones', async () => {
    const snapshot = await denseSnapshot();
    const bm25 = createBm25Index({ documents });
    const folder = join(directory, 'hybrid');
    const manifest = await saveHybridIndex(folder, { bm25, dense: snapshot, fusion: { method: 'rrf', k: 10, depth: Infinity }, candidateDepth: 5 });
    expect(manifest).toMatchObject({ format: 'factkit-hybrid', version: 1, embedderId: 'mock:hash-embedder', fusion: { method: 'rrf', k: 10 }, candidateDepth: 5 });
    const loaded = await loadHybridIndex(folder);
    expect(loaded.manifest).toEqual(manifest);
    const embedder = createMockEmbedder({ dimensions: 16 });
    const build = async (index: typeof bm25, dense: DenseIndexSnapshot) =>
      createHybridRetriever({ retrievers: [createBm25Retriever(index), await restoreDenseRetriever(dense, { embedder })], fusion: manifest.fusion, candidateDepth: manifest.candidateDepth });
    const query = { query: { text: 'cats on the sofa' }, topK: 3 };
    const fresh = await (await build(bm25, snapshot)).retrieve(query);
    const again = await (await build(loaded.bm25, loaded.dense)).retrieve(query);
    expect(again.evidence.map((hit) => [hit.documentId, hit.score])).toEqual(fresh.evidence.map((hit) => [hit.documentId, hit.score]));
    expect(again.evidence[0]?.documentId).toBe('a');
  });

  it('rejects a missing or malformed manifest and parts that disagree', async () => {
    await expect(loadHybridIndex(join(directory, 'nothing'))).rejects.toThrow(/has no readable manifest\.json/);
    const folder = join(directory, 'hybrid-bad');
    await saveHybridIndex(folder, { bm25: createBm25Index({ documents }), dense: await denseSnapshot() });
    const manifestPath = join(folder, HYBRID_MANIFEST_FILE);
    const good = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good, version: 2 }, /has version 2/],
      [{ ...good, dense: '../elsewhere' }, /"dense" must name a file inside the folder/],
      [{ ...good, fusion: { method: 'average' } }, /"fusion" is invalid/],
      [{ ...good, candidateDepth: 0 }, /"candidateDepth" must be an integer >= 1/],
      [{ ...good, embedderId: 'other' }, /says embedder "other" but dense\.index was embedded with "mock:hash-embedder"/],
    ];
    for (const [manifest, message] of cases) {
      writeFileSync(manifestPath, JSON.stringify(manifest));
      await expect(loadHybridIndex(folder)).rejects.toSatisfy((error: unknown) => CorruptDataError.isInstance(error) && message.test((error as Error).message));
    }
    await expect(saveHybridIndex(folder, { bm25: createBm25Index({ documents }), dense: await denseSnapshot(), candidateDepth: 0 })).rejects.toThrow(InvalidArgumentError);
  });
});
