import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { sciFactSentences } from '../test/scifact-sentences.js';
import { createUseLiteEmbedder } from './use-lite-embedder.js';

describeWithData('scifact', 'createUseLiteEmbedder with worker threads, on SciFact sentences', (scifact) => {
  it('gives the same vectors as the single-thread embedder (within 1e-6), in input order', async () => {
    const texts = [...sciFactSentences(scifact, 37), '', 'Short.'];
    const single = createUseLiteEmbedder({ maxBatchSize: 8 });
    const pooled = createUseLiteEmbedder({ maxBatchSize: 8, workers: 2 });
    try {
      const [a, b] = [await single.embed({ texts, kind: 'passage' }), await pooled.embed({ texts, kind: 'passage' })];
      expect(b.embeddings).toHaveLength(texts.length);
      let max = 0;
      a.embeddings.forEach((vector, row) => {
        const other = b.embeddings[row] as Float32Array;
        for (let column = 0; column < vector.length; column++) max = Math.max(max, Math.abs((vector[column] as number) - (other[column] as number)));
      });
      expect(max).toBeLessThanOrEqual(1e-6);
      expect(pooled.workers).toBe(2);
    } finally {
      single.dispose();
      pooled.dispose();
    }
  }, 180_000);
});

describe('createUseLiteEmbedder with worker threads', () => {
  it('rejects a bad worker count', () => {
    expect(() => createUseLiteEmbedder({ workers: -1 })).toThrow(/"workers"/);
    expect(() => createUseLiteEmbedder({ workers: 1.5 })).toThrow(/"workers"/);
  });
});
