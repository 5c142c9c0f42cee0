// Bundle size (gzip) and time to first result of the built page in Chromium.
//   pnpm --filter browser-search build && pnpm --filter browser-search report [-- --runs 7]
// Each run opens the page in a fresh browser context (empty cache) at `?q=<claim>`, which fetches the index,
// deserializes it and shows the first results; the page records its timings (ms since navigation start) in
// window.factkitTimings. Served from 127.0.0.1 (no network latency), so the figures are CPU and parse time.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { requireDataset } from '@factkit/test-utils/data';
import { type BuildSummary, buildPage, DIST_DIRECTORY } from './build.js';
import { startStaticServer } from './static-server.js';

const CHROMIUM = '/usr/bin/chromium';
const CLAIM = 'Vitamin D deficiency raises the risk of respiratory infections';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer (got ${values.runs})`);
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);

if (!existsSync(join(DIST_DIRECTORY, 'build-summary.json'))) await buildPage(requireDataset('scifact'));
const summary = JSON.parse(await readFile(join(DIST_DIRECTORY, 'build-summary.json'), 'utf8')) as BuildSummary;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const loadBefore = loadavg();
const server = await startStaticServer(DIST_DIRECTORY);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const samples: { indexFetched: number; deserializeMs: number; firstSearchMs: number; firstResult: number }[] = [];
try {
  for (let run = 0; run < runs; run += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}?q=${encodeURIComponent(CLAIM)}`);
    await page.waitForFunction(() => window.factkitTimings?.firstResult !== undefined, undefined, { timeout: 60_000 });
    const timings = await page.evaluate(() => window.factkitTimings);
    samples.push({ indexFetched: timings.indexFetched!, deserializeMs: timings.deserializeMs!, firstSearchMs: timings.firstSearchMs!, firstResult: timings.firstResult! });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const loadAfter = loadavg();
const version = browser.version();
const report = {
  date: new Date().toISOString(),
  chromium: version,
  cpus: cpus().length,
  loadAverage: { before: loadBefore.map((value) => Number(value.toFixed(2))), after: loadAfter.map((value) => Number(value.toFixed(2))) },
  runs,
  build: summary,
  medianMs: {
    indexFetched: median(samples.map((sample) => sample.indexFetched)),
    deserialize: median(samples.map((sample) => sample.deserializeMs)),
    firstSearch: median(samples.map((sample) => sample.firstSearchMs)),
    firstResult: median(samples.map((sample) => sample.firstResult)),
  },
  samples,
};
const out = fileURLToPath(new URL('../out/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
console.log(`browser-search report (${report.date}, Chromium ${version}, ${report.cpus} CPUs, load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} before, ${loadAfter.map((v) => v.toFixed(2)).join(' ')} after)`);
console.log(`  app.js (page script: @factkit/retrieval + @factkit/metrics + @factkit/core, minified): ${kb(summary.bundleBytes)}, ${kb(summary.bundleGzipBytes)} gzip`);
console.log(`  index.html: ${kb(summary.htmlBytes)}`);
console.log(`  scifact.bm25 (${summary.documents} abstracts with their text): ${kb(summary.indexBytes)}, ${kb(summary.indexGzipBytes)} gzip`);
console.log(`  time to first result, median of ${runs} cold loads from 127.0.0.1: ${ms(report.medianMs.firstResult)} after navigation start`);
console.log(`    index fetched ${ms(report.medianMs.indexFetched)}, deserialized in ${ms(report.medianMs.deserialize)}, first search ${report.medianMs.firstSearch.toFixed(1)} ms`);
console.log(`  samples (first result, ms): ${samples.map((sample) => sample.firstResult.toFixed(0)).join(', ')}; written to out/report.json`);
