import { chooseEmbedder } from './choose-embedder.js';
import { loadQuickstartData } from './load-data.js';
import { buildRetrievers } from './search.js';

const { documents, queries } = loadQuickstartData();
// Offline USE-lite by default; FACTKIT_EMBED_MODEL (+ OPENAI_BASE_URL / OPENAI_API_KEY) picks an OpenAI-compatible endpoint.
const { embedder, description, label } = chooseEmbedder();
process.stderr.write(`factkit quickstart: ${documents.length} SciFact abstracts, ${queries.length} claims, ${description} + BM25\n`);

const started = Date.now();
const retrievers = await buildRetrievers(embedder, documents, ({ completed, total }) => {
  process.stderr.write(`\rembedding corpus ${completed}/${total}`);
});
process.stderr.write(`\rindexed ${documents.length} abstracts in ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`);

const titles = new Map(documents.map((document) => [document.id, document.title ?? '']));
const found = { bm25: 0, dense: 0, hybrid: 0 };
for (const query of queries) {
  console.log(`Claim: ${query.text}`);
  for (const name of ['bm25', 'dense', 'hybrid'] as const) {
    const { evidence } = await retrievers[name].retrieve({ query: { text: query.text }, topK: 3 });
    if (evidence.some((item) => query.relevant.includes(item.documentId))) found[name] += 1;
    if (name !== 'hybrid') continue;
    for (const item of evidence) {
      const mark = query.relevant.includes(item.documentId) ? '  ✓ gold evidence' : '';
      console.log(`  ${item.rank}. [${item.score.toFixed(4)}] ${item.documentId} ${titles.get(item.documentId)?.slice(0, 90)}${mark}`);
    }
  }
  console.log('');
}
console.log(`Gold evidence in the top 3 (of ${queries.length} claims): BM25 ${found.bm25}, dense ${label} ${found.dense}, hybrid RRF ${found.hybrid}.`);
