// The retrieval study of "Chunk Knowledge Generation Model" (Table 7) on SciFact: chunks annotated offline (and with a
// model when OPENAI_BASE_URL is set), every passage layout scored with BM25 and, on a smaller subset, USE-lite.
//
//   pnpm --filter chunk-search start -- --full-bm25
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 FACTKIT_MODEL=qwen2.5-7b-instruct pnpm --filter chunk-search start
//
// Writes results/report.md, results/results.json and results/average-by-layout.svg; exits 1 when a model call failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createOfflineAnnotator, createSentenceChunker } from '@factkit/chunk-knowledge';
import { datasetArgument } from '@factkit/test-utils/data';
import { studyCorpus } from './corpus-study.js';
import { formatReport, renderAverageChart } from './report.js';
import { loadSciFact, selectClaims, selectSubset } from './scifact.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    data: { type: 'string' }, // BEIR SciFact folder; default: scifact/ in the data root ($FACTKIT_DATA)
    out: { type: 'string', default: resolve(here, '../results') },
    cache: { type: 'string', default: resolve(here, '../.cache') },
    distractors: { type: 'string', default: '200' },
    'dense-claims': { type: 'string', default: '60' },
    'dense-distractors': { type: 'string', default: '60' },
    seed: { type: 'string', default: '13' },
    'max-tokens': { type: 'string', default: '128' },
    percentile: { type: 'string', default: '30' },
    'full-bm25': { type: 'boolean', default: false },
    'model-full': { type: 'boolean', default: false },
    'no-dense': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '4' },
  },
});

const log = (message: string) => process.stderr.write(`${message}\n`);
let lastProgress = 0;
const progress = (message: string) => {
  if (Date.now() - lastProgress > 5_000) {
    lastProgress = Date.now();
    log(message);
  }
};

const data = loadSciFact(datasetArgument('scifact', values.data, '--data <scifact folder>'));
const seed = Number(values.seed);
const shared = {
  chunker: createSentenceChunker({ maxTokens: Number(values['max-tokens']) }),
  annotator: createOfflineAnnotator({ questionCount: 3 }),
  percentile: Number(values.percentile),
  cacheDirectory: values.cache,
  concurrency: Number(values.concurrency),
  log,
  progress,
};
const studies = [await studyCorpus({ ...shared, name: `all claims, gold+${values.distractors}`, claims: data, documents: selectSubset(data, { distractors: Number(values.distractors), seed }), dense: false, withModel: true })];
if (!values['no-dense']) {
  // USE-lite embeds ~26 short sentences/s on an idle core and every layout is embedded separately: a smaller subset.
  const denseData = selectClaims(data, { count: Number(values['dense-claims']), seed });
  const documents = selectSubset(denseData, { distractors: Number(values['dense-distractors']), seed });
  studies.push(await studyCorpus({ ...shared, name: `${denseData.queries.length} claims, gold+${values['dense-distractors']}`, claims: denseData, documents, dense: true, withModel: true }));
}
if (values['full-bm25']) studies.push(await studyCorpus({ ...shared, name: 'all claims, full corpus', claims: data, documents: data.corpus, dense: false, withModel: values['model-full'] }));

const rows = studies.flatMap((study) => study.rows);
const notes = studies.flatMap((study) => study.notes);
const incomplete = studies.some((study) => study.incomplete);
const report = formatReport(rows, { maxTokens: values['max-tokens'], seed: values.seed, subsets: studies.map((study) => study.subset), notes });
mkdirSync(values.out, { recursive: true });
writeFileSync(`${values.out}/report.md`, report);
writeFileSync(`${values.out}/results.json`, JSON.stringify({ rows, notes, incomplete }, null, 2));
writeFileSync(`${values.out}/average-by-layout.svg`, renderAverageChart(rows, 'SciFact chunk retrieval: Avg of Top@1/3/5/10 by layout'));
process.stdout.write(report);
if (incomplete) {
  log('Numbers are incomplete (model calls failed); exiting with status 1.');
  process.exitCode = 1;
}
