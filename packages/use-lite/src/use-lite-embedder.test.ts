import http from 'node:http';
import https from 'node:https';
import { cosineSimilarity, FactkitError, InvalidArgumentError, l2Norm } from '@factkit/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createUseLiteEmbedder } from './use-lite-embedder.js';

function maxAbsDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i += 1) max = Math.max(max, Math.abs((a[i] as number) - (b[i] as number)));
  return max;
}

// Hand-written triplets: (anchor, paraphrase, unrelated). Human judgement is the independent truth here.
const TRIPLETS: ReadonlyArray<readonly [string, string, string]> = [
  ['A man is playing a guitar.', 'Someone plays the guitar.', 'The stock market fell sharply today.'],
  ['Vitamin B12 deficiency raises homocysteine levels in blood.', 'Low vitamin B12 increases blood homocysteine.', 'The train to Paris leaves at noon.'],
  ['The cat sat on the mat.', 'A cat was sitting on a rug.', 'Interest rates were raised by the central bank.'],
  ['How old is the president of France?', 'What is the age of the French president?', 'Bake the bread for forty minutes.'],
  ['Smoking causes lung cancer.', 'Tobacco use leads to cancer of the lungs.', 'The football match ended in a draw.'],
];

describe('createUseLiteEmbedder', () => {
  const embedder = createUseLiteEmbedder({ maxBatchSize: 4 });

  beforeAll(async () => {
    // Forbid every network path while the model loads: weights must come from node_modules.
    const fail = (what: string) => () => {
      throw new Error(`network access attempted via ${what}`);
    };
    const spies = [
      vi.spyOn(http, 'request').mockImplementation(fail('http.request')),
      vi.spyOn(http, 'get').mockImplementation(fail('http.get')),
      vi.spyOn(https, 'request').mockImplementation(fail('https.request')),
      vi.spyOn(https, 'get').mockImplementation(fail('https.get')),
      vi.spyOn(globalThis, 'fetch').mockImplementation(fail('fetch')),
    ];
    await embedder.embed({ texts: ['warm up'], kind: 'query' });
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  }, 60_000);

  it('declares 512 dimensions, normalized vectors and its batch size', () => {
    expect(embedder.id).toBe('use-lite');
    expect(embedder.dimensions).toBe(512);
    expect(embedder.normalized).toBe(true);
    expect(embedder.maxBatchSize).toBe(4);
  });

  it('returns one unit-length 512-d Float32Array per text, in order', async () => {
    const texts = TRIPLETS.flat();
    const { embeddings } = await embedder.embed({ texts, kind: 'passage' });
    expect(embeddings).toHaveLength(texts.length);
    for (const vector of embeddings) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(512);
      expect(l2Norm(vector)).toBeCloseTo(1, 4);
    }
    // Order: each vector equals the vector of its text embedded alone.
    const alone = await embedder.embed({ texts: [texts[7] as string], kind: 'passage' });
    expect(maxAbsDifference(alone.embeddings[0] as Float32Array, embeddings[7] as Float32Array)).toBeLessThan(1e-4);
  });

  it('places paraphrases closer than unrelated sentences', async () => {
    for (const [anchor, paraphrase, unrelated] of TRIPLETS) {
      const { embeddings } = await embedder.embed({ texts: [anchor, paraphrase, unrelated], kind: 'query' });
      const [a, p, u] = embeddings as [Float32Array, Float32Array, Float32Array];
      expect(cosineSimilarity(a, p), `${anchor} / ${paraphrase}`).toBeGreaterThan(cosineSimilarity(a, u) + 0.2);
    }
  });

  it('gives the same vectors whatever the batch split (maxBatchSize 1 vs 4)', async () => {
    const texts = TRIPLETS.map((triplet) => triplet[0]);
    const one = createUseLiteEmbedder({ maxBatchSize: 1 });
    const [split, whole] = await Promise.all([one.embed({ texts, kind: 'query' }), embedder.embed({ texts, kind: 'query' })]);
    split.embeddings.forEach((vector, index) => {
      expect(maxAbsDifference(vector, whole.embeddings[index] as Float32Array)).toBeLessThan(1e-4);
    });
  });

  it('returns vectors in input order although passes run sorted by length', async () => {
    const texts = ['A considerably longer sentence about vitamin D, bones and the immune system.', 'Short.', 'Medium length text here.', 'x', 'Another fairly long sentence that talks about smoking and lung cancer risk.'];
    const { embeddings } = await embedder.embed({ texts, kind: 'passage' });
    for (const [index, text] of texts.entries()) {
      const alone = await embedder.embed({ texts: [text], kind: 'passage' });
      expect(maxAbsDifference(alone.embeddings[0] as Float32Array, embeddings[index] as Float32Array), text).toBeLessThan(1e-4);
    }
  });

  it('embeds queries and passages alike', async () => {
    const [query, passage] = await Promise.all([embedder.embed({ texts: ['Smoking causes lung cancer.'], kind: 'query' }), embedder.embed({ texts: ['Smoking causes lung cancer.'], kind: 'passage' })]);
    expect(maxAbsDifference(query.embeddings[0] as Float32Array, passage.embeddings[0] as Float32Array)).toBeLessThan(1e-6);
  });

  it('handles empty strings anywhere in a batch (the raw model throws or drops rows)', async () => {
    for (const texts of [[''], ['hello', ''], ['', 'hello', ''], ['hello', '', 'world']]) {
      const { embeddings } = await embedder.embed({ texts, kind: 'passage' });
      expect(embeddings).toHaveLength(texts.length);
      for (const vector of embeddings) expect(l2Norm(vector)).toBeCloseTo(1, 4);
    }
    const [helloAlone] = (await embedder.embed({ texts: ['hello'], kind: 'passage' })).embeddings;
    const mixed = await embedder.embed({ texts: ['', 'hello', ''], kind: 'passage' });
    expect(maxAbsDifference(helloAlone as Float32Array, mixed.embeddings[1] as Float32Array)).toBeLessThan(1e-4);
  });

  it('returns no vectors for no texts', async () => {
    await expect(embedder.embed({ texts: [], kind: 'query' })).resolves.toEqual({ embeddings: [] });
  });

  it('rejects non-string texts with InvalidArgumentError naming the item', async () => {
    const error = await embedder.embed({ texts: ['ok', 42 as unknown as string], kind: 'query' }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('texts[1]');
  });

  it('validates maxBatchSize at construction', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => createUseLiteEmbedder({ maxBatchSize: bad })).toThrowError(/maxBatchSize/);
    }
    try {
      createUseLiteEmbedder({ maxBatchSize: 0 });
    } catch (error) {
      expect(FactkitError.isInstance(error) && error.code === 'invalid_argument').toBe(true);
    }
  });

  it('rethrows the abort reason unchanged, before work and between batches', async () => {
    const reason = new Error('stop');
    const before = new AbortController();
    before.abort(reason);
    await expect(embedder.embed({ texts: ['a'], kind: 'query', abortSignal: before.signal })).rejects.toBe(reason);

    // Aborted right after the call starts (while the model loads or the first batch runs): rejects with the reason.
    const during = new AbortController();
    const texts = Array.from({ length: 12 }, (_, index) => `sentence ${index}`);
    const pending = embedder.embed({ texts, kind: 'query', abortSignal: during.signal });
    during.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('can be disposed and reloads on next use', async () => {
    const local = createUseLiteEmbedder();
    const first = await local.embed({ texts: ['The cat sat on the mat.'], kind: 'query' });
    local.dispose();
    const second = await local.embed({ texts: ['The cat sat on the mat.'], kind: 'query' });
    expect(maxAbsDifference(first.embeddings[0] as Float32Array, second.embeddings[0] as Float32Array)).toBeLessThan(1e-6);
  });
});
