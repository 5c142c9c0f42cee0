import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEmbedderContract, describeLanguageModelContract, describeNliModelContract } from '@factkit/test-utils';
import { afterAll, beforeAll } from 'vitest';
import { createTransformersEmbedder } from '../src/transformers-embedder.js';
import { createTransformersNliModel } from '../src/transformers-nli-model.js';
import { createTransformersText2TextModel } from '../src/transformers-text2text-model.js';
import { writeBagOfWordsClassifier, writeEchoSeq2SeqModel, writeStaticEmbeddingModel } from './fixtures/onnx-fixtures.js';
import { seededVectors } from './fixtures/random-vectors.js';

// Fixture vocabulary covering the words the contract suites embed, so no text is all [UNK].
const CONTRACT_WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'vitamin', 'd', 'deficiency', 'is', 'common', 'paris', 'capital', 'of', 'france', 'alpha', 'beta', 'gamma', 'delta', 'a', 'normalized', 'vector', 'please', '.'];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'factkit-transformers-contract-'));
  await writeStaticEmbeddingModel({ directory: join(root, 'static'), vectors: seededVectors(CONTRACT_WORDS, 16), dimensions: 16 });
  await writeBagOfWordsClassifier({
    directory: join(root, 'nli'),
    id2label: { 0: 'ENTAILMENT', 1: 'NEUTRAL', 2: 'CONTRADICTION' },
    wordLogits: [
      ['playing', [3, 0, 0]],
      ['raining', [0, 0, 3]],
    ],
    neutralWords: ['a', 'man', 'is', 'guitar', 'on', 'stage', 'the', 'sky', 'blue', 'today', 'it'],
  });
  await writeEchoSeq2SeqModel({ directory: join(root, 'echo'), words: ['say', 'hello', 'name', 'a', 'colour'] });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeEmbedderContract('transformers static-embedding fixture (normalized)', () => createTransformersEmbedder({ modelPath: join(root, 'static') }));
describeEmbedderContract('transformers static-embedding fixture (raw mean)', () => createTransformersEmbedder({ modelPath: join(root, 'static'), normalize: false }));
describeNliModelContract('transformers bag-of-words classifier fixture', () => createTransformersNliModel({ modelPath: join(root, 'nli') }));
describeLanguageModelContract('transformers echo seq2seq fixture', () => createTransformersText2TextModel({ modelPath: join(root, 'echo'), defaultMaxTokens: 8 }));
