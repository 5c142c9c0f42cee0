import { createMockEmbedder } from '@factkit/core/testing';
import { describeQueryExpanderContract } from '@factkit/test-utils';
import { createBm25Index, createDenseRetriever, createInMemoryVectorStore, createRm3Expander, createRocchioExpander } from '../src/index.js';

// The core QueryExpander contract (packages/test-utils) over the two classical expanders, on a small corpus that the
// contract's default queries (aspirin / Eiffel Tower / vitamin C) match.
const corpus = [
  { id: 'a1', title: 'Aspirin', text: 'Aspirin lowers fever and relieves pain; aspirin reduces inflammation.' },
  { id: 'a2', text: 'Fever in children is often treated with paracetamol rather than aspirin.' },
  { id: 'e1', title: 'Eiffel Tower', text: 'The Eiffel Tower is a wrought-iron tower in Paris, France.' },
  { id: 'e2', text: 'Berlin is the capital of Germany; its tower is the Fernsehturm.' },
  { id: 'v1', title: 'Vitamin C', text: 'Vitamin C supplements do not prevent colds in the general population.' },
  { id: 'v2', text: 'Colds are caused by rhinoviruses; vitamin C may shorten them slightly.' },
  { id: 'x1', text: 'Bread is baked from flour, water, salt and yeast.' },
  { id: 'x2', text: 'Rivers carry sediment from mountains to the sea.' },
];

describeQueryExpanderContract('rm3 over BM25', () => createRm3Expander({ index: createBm25Index({ documents: corpus }), fbDocs: 2, fbTerms: 5, filterTerms: false }));

describeQueryExpanderContract('rocchio over a dense retriever (mock embedder)', async () => {
  const embedder = createMockEmbedder({ dimensions: 16 });
  const store = createInMemoryVectorStore({ dimensions: 16 });
  const retriever = createDenseRetriever({ embedder, store });
  await retriever.index({ documents: corpus });
  return createRocchioExpander({ embedder, retriever, getVector: store.getVector, feedbackDocuments: 2 });
});
