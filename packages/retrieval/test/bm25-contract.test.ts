import { describeRetrieverContract } from '@factkit/test-utils';
import { createBm25Index, createBm25Retriever, createRm3Expander } from '../src/index.js';

const documents = [
  { id: 'cats', title: 'Cats', text: 'Domestic cats purr, hunt mice and sleep most of the day.' },
  { id: 'dogs', text: 'Dogs are loyal companions that bark at strangers.' },
  { id: 'birds', text: 'Many birds migrate south for the winter.' },
  { id: 'fish', text: 'Fish breathe through gills; some cats like to watch fish.' },
  { id: 'mice', text: 'Mice are small rodents hunted by cats and owls.' },
];

describeRetrieverContract('bm25', () => createBm25Retriever(documents), { query: 'why do cats purr', expectedId: 'cats' });
describeRetrieverContract('bm25 (exhaustive)', () => createBm25Retriever(documents, { strategy: 'exhaustive', variant: 'bm25+' }), { query: 'cats hunting mice', expectedId: 'mice' });
describeRetrieverContract(
  'bm25 on RM3-expanded queries',
  () => {
    const index = createBm25Index({ documents });
    const retriever = createBm25Retriever(index);
    const expander = createRm3Expander({ index, fbDocs: 2 });
    return {
      id: 'bm25+rm3',
      async retrieve(request) {
        const query = await expander.expand({ query: request.query, ...(request.abortSignal ? { abortSignal: request.abortSignal } : {}) });
        return retriever.retrieve({ ...request, query });
      },
    };
  },
  { query: 'cats purr', expectedId: 'cats' },
);
