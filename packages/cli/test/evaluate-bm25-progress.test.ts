import { fileURLToPath } from 'node:url';
import type { Progress } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { evaluateBm25OnBeir } from '../src/evaluate-bm25-on-beir.js';

const tinyBeir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));

describe('evaluateBm25OnBeir onProgress', () => {
  it('reports core Progress: index (streamed, total = count so far) then search (completed of the judged queries)', async () => {
    const events: Progress<'index' | 'search'>[] = [];
    const result = await evaluateBm25OnBeir(tinyBeir, { onProgress: (progress) => events.push(progress) });
    // tiny-beir: 4 documents; q1–q3 are judged and have text (q4 is unjudged, q9 has no text).
    expect(result.queryCount).toBe(3);
    expect(events).toEqual([
      { stage: 'index', completed: 4, total: 4 },
      { stage: 'search', completed: 3, total: 3 },
    ]);
    for (const event of events) expect(event.completed).toBeLessThanOrEqual(event.total);
  });

  it('reports no index stage for a given index', async () => {
    const { index } = await evaluateBm25OnBeir(tinyBeir);
    const events: Progress<'index' | 'search'>[] = [];
    await evaluateBm25OnBeir(tinyBeir, { index, onProgress: (progress) => events.push(progress) });
    expect(events).toEqual([{ stage: 'search', completed: 3, total: 3 }]);
  });
});
