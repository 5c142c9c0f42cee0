// Benchmark: splitSentences time per MB across input sizes, for both profiles, on SciFact abstracts (data root) repeated to size.
// Linear time shows as a flat ms/MB column. Medians over repeats; the machine may be shared (load average printed), so
// read the ratios, not absolute times. Run: pnpm --filter @factkit/core bench
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { requireDataset } from '../../test-utils/src/data-root.js';
import { splitSentences, type SentenceProfile } from '../src/index.js';

const corpus = gunzipSync(readFileSync(join(requireDataset('scifact'), 'corpus.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .slice(0, 400)
  .map((line) => (JSON.parse(line) as { text: string }).text)
  .join('\n\n');

function median(run: () => void, repeats: number): number {
  const times: number[] = [];
  for (let i = 0; i < repeats; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const rows: string[] = ['| input | profile | median ms | ms per MB | ms/MB vs 0.25 MB |', '|---|---|---|---|---|'];
for (const profile of ['default', 'scifact'] as const satisfies readonly SentenceProfile[]) {
  const warmUp = corpus.repeat(Math.ceil(1_000_000 / corpus.length));
  for (let i = 0; i < 3; i += 1) splitSentences(warmUp, { profile }); // JIT warm-up before any timing
  let base = Number.NaN;
  for (const megabytes of [0.25, 1, 4]) {
    const text = corpus.repeat(Math.ceil((megabytes * 1_000_000) / corpus.length)).slice(0, megabytes * 1_000_000);
    const ms = median(() => splitSentences(text, { profile }), 7);
    const perMb = ms / megabytes;
    if (Number.isNaN(base)) base = perMb;
    rows.push(`| ${megabytes} MB | ${profile} | ${ms.toFixed(0)} | ${perMb.toFixed(0)} | ${(perMb / base).toFixed(2)} |`);
  }
}
console.log(rows.join('\n'));
console.log(
  `load average (1/5/15 min): ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')}`,
);
