import { InvalidArgumentError } from '@factkit/core';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildWinkJson, writeWinkFixture } from '../test/wink-fixture.js';
import { type GloveProblemCode, createGloveEmbedder } from './glove-embedder.js';
import { parseWinkEmbeddings } from './parse-wink-embeddings.js';

const vectors = parseWinkEmbeddings(buildWinkJson());
const close = (actual: Float32Array | undefined, expected: number[]) => {
  expect(actual).toBeInstanceOf(Float32Array);
  expect([...(actual as Float32Array)].map((value) => Number(value.toFixed(6)))).toEqual(expected.map((value) => Number(value.toFixed(6))));
};

describe('createGloveEmbedder', () => {
  it('averages in-vocabulary word vectors (hand-computed), L2-normalized by default', async () => {
    const embedder = createGloveEmbedder({ vectors });
    expect(embedder).toMatchObject({ id: 'glove-4d', dimensions: 4, normalized: true });
    const { embeddings, problems } = await embedder.embed({ texts: ['Cat, dog!', 'cat cat dog', 'The cat sat.'], kind: 'passage' });
    close(embeddings[0], [Math.SQRT1_2, Math.SQRT1_2, 0, 0]); // (1,0,0,0)+(0,1,0,0)
    close(embeddings[1], [2 / Math.sqrt(5), 1 / Math.sqrt(5), 0, 0]); // repeats weigh more
    // the (.5,.5,0,0) + cat (1,0,0,0) + sat (0,0,1,0) = (1.5,.5,1,0), norm sqrt(3.5)
    close(embeddings[2], [1.5 / Math.sqrt(3.5), 0.5 / Math.sqrt(3.5), 1 / Math.sqrt(3.5), 0]);
    expect(problems).toEqual([]);
  });

  it('returns the plain mean when normalize is false', async () => {
    const embedder = createGloveEmbedder({ vectors, normalize: false });
    expect(embedder.normalized).toBe(false);
    const { embeddings } = await embedder.embed({ texts: ['The cat sat.', 'well-known'], kind: 'query' });
    close(embeddings[0], [0.5, 0.5 / 3, 1 / 3, 0]);
    close(embeddings[1], [0, 0, 0, 1]); // the compound's own vector, not well+known
  });

  it('gives a zero vector and an all-oov problem for text with no known word, keeping the batch', async () => {
    const embedder = createGloveEmbedder({ vectors });
    const { embeddings, problems } = await embedder.embed({ texts: ['cat', '1990 zebras', '', 'dog'], kind: 'passage' });
    expect(embeddings).toHaveLength(4);
    close(embeddings[1], [0, 0, 0, 0]);
    close(embeddings[2], [0, 0, 0, 0]);
    close(embeddings[3], [0, 1, 0, 0]);
    expect(problems.map((problem) => [problem.index, problem.code])).toEqual([
      [1, 'all-oov'],
      [2, 'all-oov'],
    ]);
    expect(problems[0]?.message).toContain('zebras');
  });

  it('GloveProblemCode is exactly the codes embed emits (each provoked here)', async () => {
    // Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
    const codes = { 'all-oov': true } satisfies Record<GloveProblemCode, true>;
    const { problems } = await createGloveEmbedder({ vectors }).embed({ texts: ['cat', 'zebras'], kind: 'passage' });
    expect([...new Set(problems.map((problem) => problem.code))].sort()).toEqual(Object.keys(codes).sort());
  });

  it('skips stop words', async () => {
    const embedder = createGloveEmbedder({ vectors, stopWords: ['THE'] });
    const { embeddings, problems } = await embedder.embed({ texts: ['the cat', 'the'], kind: 'passage' });
    close(embeddings[0], [1, 0, 0, 0]);
    expect(problems).toEqual([{ index: 1, code: 'all-oov', message: 'no in-vocabulary word; returned a zero vector' }]);
  });

  it('loads lazily from a source + cache dir and checks the declared dimensions', async () => {
    const { directory, sourcePath, cacheDir } = await writeWinkFixture();
    const embedder = createGloveEmbedder({ sourcePath, cacheDir, dimensions: 4 });
    const { embeddings } = await embedder.embed({ texts: ['dog'], kind: 'query' });
    close(embeddings[0], [0, 1, 0, 0]);
    const wrong = createGloveEmbedder({ sourcePath, cacheDir }); // default 100 ≠ 4
    const error = await wrong.embed({ texts: ['dog'], kind: 'query' }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error) && error.argument === 'dimensions').toBe(true);
    await rm(directory, { recursive: true, force: true });
  });

  it('validates options and input with InvalidArgumentError', async () => {
    expect(() => createGloveEmbedder({ vectors, maxBatchSize: 0 })).toThrowError(/maxBatchSize/);
    expect(() => createGloveEmbedder({ vectors, dimensions: 3 })).toThrowError(/dimensions/);
    const embedder = createGloveEmbedder({ vectors });
    const error = await embedder.embed({ texts: ['cat', null as unknown as string], kind: 'query' }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error) && error.argument === 'texts[1]').toBe(true);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(createGloveEmbedder({ vectors }).embed({ texts: ['cat'], kind: 'query', abortSignal: controller.signal })).rejects.toBe(reason);
  });
});
