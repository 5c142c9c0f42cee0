import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareProblemCodes } from '@factkit/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeBagOfWordsClassifier, writeStaticEmbeddingModel } from '../test/fixtures/onnx-fixtures.js';
import { seededVectors } from '../test/fixtures/random-vectors.js';
import type { TransformersProblemCode } from './local-model-options.js';
import { createTransformersCrossEncoder } from './transformers-cross-encoder.js';
import { createTransformersEmbedder } from './transformers-embedder.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'factkit-transformers-codes-'));
  await writeStaticEmbeddingModel({ directory: join(root, 'embedder'), vectors: seededVectors(['cat', 'dog'], 4), dimensions: 4 });
  await writeBagOfWordsClassifier({ directory: join(root, 'cross-encoder'), id2label: { 0: 'LABEL_0' }, wordLogits: [['cat', [1]]], neutralWords: ['dog'] });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('TransformersProblemCode is exactly the codes the models emit (each provoked here)', async () => {
  // Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
  const codes = { 'no-tokens': true, 'empty-query': true } satisfies Record<TransformersProblemCode, true>;
  const emitted = new Set<TransformersProblemCode>();
  const embedded = await createTransformersEmbedder({ modelPath: join(root, 'embedder') }).embed({ texts: ['cat', ''], kind: 'passage' });
  for (const problem of embedded.problems) emitted.add(problem.code);
  const candidates = [{ documentId: 'a', text: 'cat dog', score: 0, origin: { documentId: 'a' } }];
  const reranked = await createTransformersCrossEncoder({ modelPath: join(root, 'cross-encoder') }).rerank({ query: { text: ' ' }, evidence: candidates });
  for (const problem of reranked.problems ?? []) emitted.add(problem.code);
  expect(compareProblemCodes(codes, emitted)).toEqual({ outside: [], notEmitted: [] });
});
