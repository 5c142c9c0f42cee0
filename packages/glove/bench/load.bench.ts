// GloVe loading benchmark: one-time conversion of the 300 MB wink JSON, then cached loads (median of repeats).
//
//   pnpm --filter @factkit/glove bench          (BENCH_REPEATS=5 by default)
//
// The conversion runs into a fresh temp cache dir, so it is measured cold every time; the cached loads then read
// that file. Results go to bench/results/load.{json,md}.
import { mkdir, mkdtemp, rm, stat, writeFile, readdir } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGloveVectors, resolveDefaultGloveSource } from '../src/load-glove-vectors.js';

const here = dirname(fileURLToPath(import.meta.url));
const repeats = Number(process.env['BENCH_REPEATS'] ?? 5);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const cacheDir = await mkdtemp(join(tmpdir(), 'factkit-glove-bench-'));
try {
  const source = resolveDefaultGloveSource();
  const sourceBytes = (await stat(source)).size;
  let t0 = performance.now();
  await loadGloveVectors({ cacheDir });
  const conversionMs = performance.now() - t0;
  const [cacheFile] = await readdir(cacheDir);
  const cacheBytes = (await stat(join(cacheDir, cacheFile as string))).size;
  const loads: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    t0 = performance.now();
    await loadGloveVectors({ cacheDir });
    loads.push(performance.now() - t0);
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version },
    sourceMegabytes: Math.round(sourceBytes / 1e6),
    cacheMegabytes: Math.round(cacheBytes / 1e6),
    conversionMs: Math.round(conversionMs),
    cachedLoadMedianMs: Math.round(median(loads)),
    cachedLoadsMs: loads.map(Math.round),
    speedup: Number((conversionMs / median(loads)).toFixed(1)),
  };
  const markdown = [
    '# GloVe loading benchmark',
    '',
    `${result.machine.cpus} × ${result.machine.cpuModel}, Node ${result.machine.node}; ${result.date}; shared machine.`,
    '',
    '| step | time |',
    '|---|---:|',
    `| convert ${result.sourceMegabytes} MB JSON → ${result.cacheMegabytes} MB binary cache (once, cold) | ${result.conversionMs} ms |`,
    `| load from cache (median of ${repeats}) | ${result.cachedLoadMedianMs} ms |`,
    '',
    `Cached load is ${result.speedup}× faster than converting.`,
    '',
  ].join('\n');
  const outDir = join(here, 'results');
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'load.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(join(outDir, 'load.md'), markdown);
  process.stdout.write(markdown);
} finally {
  await rm(cacheDir, { recursive: true, force: true });
}
