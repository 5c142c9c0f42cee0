// The static-embedding fixture built from REAL GloVe rows must reproduce @factkit/glove's averaged vectors on real
// SciFact claims. Loads GloVe through @factkit/glove's binary cache (converting the 300 MB JSON once if no cache
// exists yet, ~10 s), then builds a small model directory from the claims' vocabulary only.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cosineSimilarity } from '@factkit/core';
import { createGloveEmbedder, loadGloveVectors } from '@factkit/glove';
import { describeWithData } from '@factkit/test-utils';
import { expect, it } from 'vitest';
import { createTransformersEmbedder } from '../src/transformers-embedder.js';
import { writeStaticEmbeddingModel } from './fixtures/onnx-fixtures.js';

describeWithData('scifact', 'static-embedding fixture from real GloVe vectors', (scifact) => {
  it('equals the normalized GloVe average on 140 real SciFact claims', async () => {
    const lines = (await readFile(join(scifact, 'claims_dev.jsonl'), 'utf8')).split('\n').filter(Boolean);
    // Hyphenated compounds are the one place the tokenizers differ (GloVe keeps "well-known" whole; the
    // fixture's Whitespace pre-tokenizer splits it), so those claims are left out.
    const claims = lines
      .map((line) => (JSON.parse(line) as { claim: string }).claim)
      .filter((claim) => !claim.includes('-'))
      .slice(0, 140);
    expect(claims.length).toBe(140);
    const vectors = await loadGloveVectors();
    const words = new Set<string>();
    for (const claim of claims) for (const token of claim.toLowerCase().match(/\w+/g) ?? []) if (vectors.indexOf(token) >= 0) words.add(token);
    const root = await mkdtemp(join(tmpdir(), 'factkit-real-glove-fixture-'));
    try {
      const modelPath = join(root, 'glove-static');
      await writeStaticEmbeddingModel({ directory: modelPath, dimensions: 100, vectors: [...words].map((word) => [word, vectors.vectorOf(word) as Float32Array] as const) });
      const ours = await createTransformersEmbedder({ modelPath }).embed({ texts: claims, kind: 'passage' });
      const truth = await createGloveEmbedder({ vectors }).embed({ texts: claims, kind: 'passage' });
      expect(truth.problems).toEqual([]);
      // Punctuation and numbers are [UNK] rows (zero) in the fixture and skipped by GloVe: that changes the mean's
      // length, not its direction, so the normalized vectors agree.
      claims.forEach((claim, index) => {
        expect(cosineSimilarity(ours.embeddings[index] as Float32Array, truth.embeddings[index] as Float32Array), claim).toBeGreaterThan(0.99999);
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
