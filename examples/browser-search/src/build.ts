// Builds the static page into dist/: the SciFact BM25 index (BEIR SciFact read in place from the data root, see
// @factkit/test-utils/data, serialized with serializeBm25Index), the judged test claims with their qrels, and the page's
// script bundled with esbuild for the browser (no CDN, no Node polyfills: a Node built-in anywhere in the bundle fails
// the build). Without SciFact the build prints one line and skips (a fresh clone builds); under CI=true it fails.
//   pnpm --filter browser-search build [-- --beir <scifact folder>]
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { serializeBm25Index } from '@factkit/retrieval';
import { buildBm25IndexFromJsonl, loadBeirDataset } from '@factkit/retrieval/node';
import { dataset, isCi, missingDatasetMessage } from '@factkit/test-utils/data';
import { build } from 'esbuild';
import { EVALUATION_FILE, type EvaluationData, INDEX_FILE } from './page/settings.js';

export const EXAMPLE_DIRECTORY = fileURLToPath(new URL('..', import.meta.url));
export const DIST_DIRECTORY = join(EXAMPLE_DIRECTORY, 'dist');

export interface BuildSummary {
  readonly documents: number;
  readonly queries: number;
  readonly indexBytes: number;
  readonly indexGzipBytes: number;
  readonly bundleBytes: number;
  readonly bundleGzipBytes: number;
  readonly htmlBytes: number;
}

/** Builds dist/ from the BEIR SciFact folder `scifactDirectory` (corpus.jsonl.gz, queries.jsonl, qrels/test.tsv). */
export async function buildPage(scifactDirectory: string): Promise<BuildSummary> {
  await rm(DIST_DIRECTORY, { recursive: true, force: true });
  await mkdir(DIST_DIRECTORY, { recursive: true });

  const dataset = await loadBeirDataset(scifactDirectory, { split: 'test' });
  if (dataset.problems.length > 0) throw new Error(`${scifactDirectory} has problems: ${dataset.problems.map((problem) => problem.message).join('; ')}`);
  // Anserini's defaults (Lucene English analyzer, k1 0.9, b 0.4, title and text as one field); documents are stored so
  // the page can show and highlight them.
  const { index, problems } = await buildBm25IndexFromJsonl(dataset.corpusPath, { storeDocuments: true });
  if (problems.length > 0) throw new Error(`corpus problems: ${problems.map((problem) => problem.message).join('; ')}`);
  const bytes = serializeBm25Index(index);
  await writeFile(join(DIST_DIRECTORY, INDEX_FILE), bytes);
  const evaluation: EvaluationData = {
    dataset: 'SciFact',
    split: 'test',
    queries: dataset.queries.map((query) => ({ id: query.id ?? '', text: query.text })),
    qrels: dataset.qrels,
  };
  if (evaluation.queries.some((query) => query.id === '')) throw new Error('a SciFact test query has no id');
  await writeFile(join(DIST_DIRECTORY, EVALUATION_FILE), `${JSON.stringify(evaluation)}\n`);

  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./page/main.ts', import.meta.url))],
    outfile: join(DIST_DIRECTORY, 'app.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const nodeInputs = Object.keys(bundled.metafile.inputs).filter((input) => input.startsWith('node:'));
  if (nodeInputs.length > 0) throw new Error(`the page bundle imports Node built-ins: ${nodeInputs.join(', ')}`);
  const html = await readFile(fileURLToPath(new URL('./page/index.html', import.meta.url)));
  await writeFile(join(DIST_DIRECTORY, 'index.html'), html);
  const bundle = await readFile(join(DIST_DIRECTORY, 'app.js'));
  const summary: BuildSummary = {
    documents: index.documentCount,
    queries: evaluation.queries.length,
    indexBytes: bytes.byteLength,
    indexGzipBytes: gzipSync(bytes, { level: 9 }).byteLength,
    bundleBytes: bundle.byteLength,
    bundleGzipBytes: gzipSync(bundle, { level: 9 }).byteLength,
    htmlBytes: html.byteLength,
  };
  await writeFile(join(DIST_DIRECTORY, 'build-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { beir: { type: 'string' } } });
  const scifact = values.beir ?? dataset('scifact');
  if (scifact === undefined) {
    const message = `browser-search: page not built — ${missingDatasetMessage('scifact', { flag: '--beir <folder>' })}`;
    if (isCi()) {
      console.error(message);
      process.exit(1);
    }
    console.log(message);
    process.exit(0);
  }
  const started = performance.now();
  const summary = await buildPage(scifact);
  console.log(
    `browser-search: dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${summary.documents} abstracts, ${summary.queries} test claims; ` +
      `app.js ${kb(summary.bundleBytes)} (${kb(summary.bundleGzipBytes)} gzip), ${INDEX_FILE} ${kb(summary.indexBytes)} (${kb(summary.indexGzipBytes)} gzip)`,
  );
}
