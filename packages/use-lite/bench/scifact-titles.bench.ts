// Retrieval sanity check for the offline encoders: rank all 5,183 SciFact document TITLES for each of the 240 dev
// claims by cosine similarity, and score against the claims' cited documents (Recall@10, MRR@10). Titles only, to
// keep USE-lite's run to a few minutes; this is a relative comparison of encoders, not a SciFact result.
//
//   pnpm --filter @factkit/use-lite bench     (runs after embedders.bench.ts)
import { requireDataset } from '@factkit/test-utils/data';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { dotProduct, normalizeL2, type Embedder } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import { createUseLiteEmbedder } from '../src/use-lite-embedder.js';

const here = dirname(fileURLToPath(import.meta.url));
const data = requireDataset('scifact');

async function main(): Promise<void> {
  const corpus = gunzipSync(await readFile(join(data, 'corpus.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { _id: string; title: string });
  const claims = (await readFile(join(data, 'claims_dev.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { claim: string; cited_doc_ids: number[] })
    .filter((claim) => claim.cited_doc_ids.length > 0);

  const rows = [];
  for (const [name, embedder] of [
    ['use-lite', createUseLiteEmbedder()],
    ['glove-100d average', createGloveEmbedder()],
  ] as Array<[string, Embedder]>) {
    const t0 = performance.now();
    const titles = (await embedder.embed({ texts: corpus.map((doc) => doc.title), kind: 'passage' })).embeddings.map((vector) => normalizeL2(vector));
    const queries = (await embedder.embed({ texts: claims.map((claim) => claim.claim), kind: 'query' })).embeddings.map((vector) => normalizeL2(vector));
    const seconds = (performance.now() - t0) / 1000;
    let hits = 0;
    let reciprocalRanks = 0;
    queries.forEach((query, index) => {
      const relevant = new Set((claims[index] as (typeof claims)[number]).cited_doc_ids.map(String));
      const scored = titles.map((title, position) => ({ id: (corpus[position] as (typeof corpus)[number])._id, dot: dotProduct(query, title) }));
      scored.sort((a, b) => b.dot - a.dot);
      const rank = scored.slice(0, 10).findIndex((entry) => relevant.has(entry.id));
      if (rank >= 0) {
        hits += 1;
        reciprocalRanks += 1 / (rank + 1);
      }
    });
    rows.push({ encoder: name, recallAt10: Number((hits / claims.length).toFixed(3)), mrrAt10: Number((reciprocalRanks / claims.length).toFixed(3)), embedSeconds: Math.round(seconds) });
  }
  const result = { date: new Date().toISOString(), claims: claims.length, titles: corpus.length, rows };
  const markdown = [
    '# SciFact dev claims → document titles (dense, cosine)',
    '',
    `${result.claims} claims, ${result.titles} titles; ${result.date}. Hit = any cited document in the top 10.`,
    '',
    '| encoder | Recall@10 | MRR@10 | embedding time (s) |',
    '|---|---:|---:|---:|',
    ...rows.map((row) => `| ${row.encoder} | ${row.recallAt10} | ${row.mrrAt10} | ${row.embedSeconds} |`),
    '',
  ].join('\n');
  const outDir = join(here, 'results');
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'scifact-titles.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(join(outDir, 'scifact-titles.md'), markdown);
  process.stdout.write(markdown);
}

await main();
