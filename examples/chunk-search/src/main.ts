import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AnnotatedChunk } from '@factkit/chunk-knowledge';
import { PASSAGE_LAYOUTS, chunkDocuments, createOfflineAnnotator, createSentenceChunker, filterQuestionsByRelevance } from '@factkit/chunk-knowledge';
import type { Embedder } from '@factkit/core';
import { withEmbeddingCache } from '@factkit/core';
import { datasetArgument } from '@factkit/test-utils/data';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { renderAverageChart } from './report.js';
import type { SciFactData } from './scifact.js';
import { loadSciFact, selectClaims, selectSubset } from './scifact.js';
import type { StudyRow } from './study.js';
import { formatRows, runTable7 } from './study.js';
import { annotateWithModel } from './model-annotations.js';
import { createVectorFileCache } from './vector-file-cache.js';

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
  const now = Date.now();
  if (now - lastProgress > 5_000) {
    lastProgress = now;
    log(message);
  }
};

const data = loadSciFact(datasetArgument('scifact', values.data, '--data <scifact folder>'));
const seed = Number(values.seed);
const subset = selectSubset(data, { distractors: Number(values.distractors), seed });
// USE-lite embeds ~26 short sentences/s on an idle core (far fewer on long passages or a loaded machine), and every
// layout is embedded separately, so the dense rows run on a smaller documented subset of claims.
const denseData = selectClaims(data, { count: Number(values['dense-claims']), seed });
const denseSubset = selectSubset(denseData, { distractors: Number(values['dense-distractors']), seed });
const chunker = createSentenceChunker({ maxTokens: Number(values['max-tokens']) });
const annotator = createOfflineAnnotator({ questionCount: 3 });

const subsets: string[] = [];
function prepare(corpusName: string, claims: SciFactData, documents: typeof data.corpus) {
  const { chunks, problems } = chunkDocuments(documents, { chunker });
  const message = `${corpusName}: ${claims.queries.length} claims, ${documents.length} abstracts -> ${chunks.length} chunks (${problems.length} chunking problems: ${[...new Set(problems.map((p) => p.code))].join(', ') || 'none'})`;
  log(message);
  subsets.push(message);
  return { chunks, qrels: claims.qrels };
}

const rows: StudyRow[] = [];
const notes: string[] = [];
let incomplete = false;

async function study(corpusName: string, claims: SciFactData, documents: typeof data.corpus, dense: boolean, withModel: boolean): Promise<void> {
  const { chunks, qrels } = prepare(corpusName, claims, documents);
  const started = performance.now();
  const offline: AnnotatedChunk[] = chunks.map((chunk) => annotator.annotate(chunk));
  log(`${corpusName}: offline annotation of ${chunks.length} chunks in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  const filtered = await filterQuestionsByRelevance(offline, { percentile: Number(values.percentile) });
  notes.push(`${corpusName}: Doc2Query-- (BM25 relevance, percentile ${values.percentile}) dropped ${filtered.droppedCount} of ${filtered.droppedCount + filtered.keptCount} offline questions (threshold ${filtered.threshold.toFixed(3)}).`);
  let embedder: Embedder | undefined;
  let cache: ReturnType<typeof createVectorFileCache> | undefined;
  if (dense) {
    const useLite = createUseLiteEmbedder();
    cache = createVectorFileCache(`${values.cache}/use-lite`, useLite.dimensions);
    embedder = withEmbeddingCache(useLite, cache);
    const flush = setInterval(() => cache?.flush(), 30_000);
    flush.unref();
  }
  const common = { queries: claims.queries, qrels, onProgress: progress, ...(embedder ? { embedder } : {}) };
  rows.push(...(await runTable7({ ...common, items: offline, variant: `${corpusName} offline baseline` })));
  if (dense) {
    // Diagnostic: the same passages without E5's <s> / </s> delimiters, which a non-E5 encoder reads as noise.
    const plain = PASSAGE_LAYOUTS.filter((layout) => layout.name === 'case-1' || layout.name === 'case-6');
    rows.push(...(await runTable7({ ...common, items: offline, variant: `${corpusName} offline baseline, no <s> delimiters`, layouts: plain, extras: false, render: { open: '', close: '' } })));
  }
  const questionLayouts = PASSAGE_LAYOUTS.filter((layout) => layout.fields.includes('questions'));
  rows.push(...(await runTable7({ ...common, items: filtered.items, variant: `${corpusName} offline + Doc2Query--`, layouts: questionLayouts, extras: false })));
  cache?.flush();

  if (withModel && process.env['OPENAI_BASE_URL']) {
    const model = await annotateWithModel(chunks, { cacheDirectory: `${values.cache}/llm`, concurrency: Number(values.concurrency), onProgress: progress });
    const annotated = model.outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
    const failed = model.outcomes.flatMap((outcome) => (outcome.status === 'failed' ? [outcome] : []));
    notes.push(`${corpusName}: model ${model.modelId}: ${annotated.length} chunks annotated, ${failed.length} failed, ${model.problemCount} per-field problems.`);
    if (failed.length > 0) {
      incomplete = true;
      notes.push(`${corpusName}: INCOMPLETE: ${failed.length} chunk(s) failed (first: ${failed[0]!.problems[0]?.id}: ${failed[0]!.problems[0]?.message}); the model rows below leave these chunks out of the index.`);
    }
    rows.push(...(await runTable7({ ...common, items: annotated, variant: `${corpusName} model ${model.modelId}` })));
    cache?.flush();
  }
}

await study(`all claims, gold+${values.distractors}`, data, subset, false, true);
if (!values['no-dense']) await study(`${denseData.queries.length} claims, gold+${values['dense-distractors']}`, denseData, denseSubset, true, true);
if (values['full-bm25']) await study('all claims, full corpus', data, data.corpus, false, values['model-full']);

const header = [
  `# chunk-search on SciFact (claims of the BEIR test split = original dev claims)`,
  '',
  'Chunks: sentence-packed, at most ' + values['max-tokens'] + ' tokens. Relevance: a retrieved chunk is right when its parent abstract is a gold abstract of the claim (BEIR qrels); Top@k = share of claims with at least one right chunk in the top k; MRR@10 over chunks; Avg = mean of Top@1/3/5/10 as in the paper\'s Table 7.',
  'Corpora (a subset = every gold abstract of its claims + distractor abstracts drawn with seed ' + values.seed + '; claims for the dense subset drawn with the same seed):',
  ...subsets.map((line) => `- ${line}`),
  'Titles and questions of the offline rows come from the LLM-free baseline (lead sentence + RAKE key-phrase templates), not from the paper\'s model.',
  '',
  ...notes.map((note) => `- ${note}`),
  '',
];
const report = [...header, formatRows(rows), ''].join('\n');
mkdirSync(values.out, { recursive: true });
writeFileSync(`${values.out}/report.md`, report);
writeFileSync(`${values.out}/results.json`, JSON.stringify({ rows, notes, incomplete }, null, 2));
writeFileSync(`${values.out}/average-by-layout.svg`, renderAverageChart(rows, 'SciFact chunk retrieval: Avg of Top@1/3/5/10 by layout'));
process.stdout.write(report);
if (incomplete) {
  log('Numbers are incomplete (model calls failed); exiting with status 1.');
  process.exitCode = 1;
}
