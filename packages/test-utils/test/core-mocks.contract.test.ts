import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryCache } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createMockEmbedder, createMockLanguageModel, createMockNliModel, createMockQueryExpander, createMockReranker, createMockRetriever, createMockVectorStore } from '@factkit/core/testing';
import {
  describeCacheContract,
  describeEmbedderContract,
  describeLanguageModelContract,
  describeNliModelContract,
  describeQueryExpanderContract,
  describeRerankerContract,
  describeRetrieverContract,
  describeVectorStoreContract,
} from '../src/index.js';

// The mocks users get from @factkit/core/testing must honour the same contracts as real implementations.
describeLanguageModelContract('core mock', () => createMockLanguageModel({ responses: ['hello'] }));
describeEmbedderContract('core mock (feature hashing)', () => createMockEmbedder({ dimensions: 32 }));
describeNliModelContract('core mock (word inclusion)', () => createMockNliModel());
describeRetrieverContract(
  'core mock (word overlap)',
  () =>
    createMockRetriever([
      { id: 'd1', text: 'Vitamin D deficiency is linked to bone loss.' },
      { id: 'd2', text: 'The capital of France is Paris.' },
      { id: 'd3', text: 'Bone density declines with age and vitamin status.' },
    ]),
  { query: 'vitamin D bone', expectedId: 'd1' },
);
describeVectorStoreContract('core mock (brute force)', () => createMockVectorStore({ dimensions: 4 }), { dimensions: 4 });
describeCacheContract('memory', () => createMemoryCache());
describeCacheContract('file', () => createFileCache({ directory: mkdtempSync(join(tmpdir(), 'factkit-contract-')) }));

describeQueryExpanderContract('createMockQueryExpander', () => createMockQueryExpander());
describeQueryExpanderContract('createMockQueryExpander (LLM-like)', () => createMockQueryExpander({ usesLanguageModel: true }));
describeRerankerContract('createMockReranker (word share)', () => createMockReranker(), {
  query: 'vitamin D bone',
  candidates: [
    { documentId: 'd2', text: 'The capital of France is Paris.', score: 3, rank: 1, origin: { documentId: 'd2' } },
    { documentId: 'd3', text: 'Bone density declines with age.', score: 2, rank: 2, origin: { documentId: 'd3' } },
    { documentId: 'd1', text: 'Vitamin D deficiency is linked to bone loss.', score: 1, rank: 3, origin: { documentId: 'd1', title: 'Vitamin D' } },
  ],
  expectedFirstId: 'd1',
});
