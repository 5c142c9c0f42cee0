// factkit inside LangChain.js, offline on WordNet 3.1: `pnpm --filter langchain-example start`.
import { buildPipeline } from './pipeline.js';

// Questions with a right and wrong answers, written by hand before running (never tuned to the output).
const items = [
  { id: 'einstein', question: 'Who was Albert Einstein?', answer: 'Albert Einstein was a physicist born in Germany.' },
  { id: 'canberra', question: 'What is Canberra?', answer: 'Canberra is the capital of Canada.' },
  { id: 'hamlet', question: 'Who wrote Hamlet?', answer: 'Hamlet was written by Christopher Marlowe.' },
];

const started = performance.now();
const { corpusSize, searchChain, storeRetriever, checkChain } = await buildPipeline();
process.stdout.write(`corpus: ${corpusSize} WordNet 3.1 instance synsets (built in ${((performance.now() - started) / 1000).toFixed(1)} s)\n\n`);

process.stdout.write('1. factkit BM25 as a LangChain retriever, in a chain (retriever | format), "who wrote Hamlet":\n');
process.stdout.write(`${await searchChain.invoke('who wrote Hamlet')}\n\n`);

process.stdout.write('2. a LangChain vector store (GloVe through factkit) as a factkit Retriever, "capital of Australia":\n');
const { evidence } = await storeRetriever.retrieve({ query: { text: 'capital of Australia' }, topK: 3 });
for (const item of evidence) process.stdout.write(`${item.rank}. ${item.documentId} ${item.score.toFixed(3)} ${JSON.stringify(item.origin)}\n`);

process.stdout.write('\n3. the factkit checker as a LangChain Runnable (drafter → LangChain store → feature NLI), batch of 3:\n');
for (const summary of await checkChain.batch(items)) process.stdout.write(`${JSON.stringify(summary, null, 1).replace(/\n\s*/g, ' ')}\n`);
