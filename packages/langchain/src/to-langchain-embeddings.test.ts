import { InvalidArgumentError } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { toLangChainEmbeddings } from './to-langchain-embeddings.js';

describe('toLangChainEmbeddings', () => {
  it("embeds documents as passages in the embedder's batches and queries as queries, as plain number arrays", async () => {
    const embedder = { ...createMockEmbedder({ dimensions: 8 }), maxBatchSize: 2 };
    const mock = createMockEmbedder({ dimensions: 8 });
    const embeddings = toLangChainEmbeddings({ ...embedder, embed: (request) => mock.embed(request) });
    const documents = await embeddings.embedDocuments(['a', 'b', 'c']);
    const query = await embeddings.embedQuery('a');
    expect(mock.calls.map((call) => [call.kind, call.texts])).toEqual([
      ['passage', ['a', 'b']],
      ['passage', ['c']],
      ['query', ['a']],
    ]);
    const direct = await createMockEmbedder({ dimensions: 8 }).embed({ texts: ['a', 'b', 'c'], kind: 'passage' });
    expect(documents).toEqual(direct.embeddings.map((vector) => Array.from(vector)));
    expect(query).toHaveLength(8);
  });

  it('rejects what is not an embedder', () => {
    expect(() => toLangChainEmbeddings({} as never)).toThrow(InvalidArgumentError);
  });
});
