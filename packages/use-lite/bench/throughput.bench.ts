// USE-lite throughput: today's default (calling thread, passes of 8) vs larger passes vs worker threads, same
// sentences, same run, configurations in rotating order; medians over repeats. Checks that worker vectors equal the
// single-thread vectors of the same pass size (max |difference|).
//
//   pnpm --filter @factkit/use-lite bench        (BENCH_SENTENCES=400 BENCH_REPEATS=3)
//
// Results: bench/results/throughput.{json,md}. The machine is shared: the load average is recorded beside the figures.
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const sentenceCount = Number(process.env['BENCH_SENTENCES'] ?? 400);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);

function sentences(count: number): string[] {
  const out: string[] = [];
  for (const line of gunzipSync(readFileSync(join(here, '..', '..', '..', 'datasets', 'scifact', 'corpus_sentences.jsonl.gz'))).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    for (const sentence of (JSON.parse(line) as { abstract: string[] }).abstract) if (sentence.length >= 20 && out.length < count) out.push(sentence);
    if (out.length >= count) break;
  }
  return out;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<void> {
  const loadBefore = execSync('uptime').toString().trim();
  const texts = sentences(sentenceCount);
  const workers = Math.min(2, availableParallelism());
  const configs: Array<{ name: string; embedder: UseLiteEmbedder }> = [
    { name: 'calling thread, passes of 8 (default, "today")', embedder: createUseLiteEmbedder({ maxBatchSize: 8 }) },
    { name: 'calling thread, passes of 32', embedder: createUseLiteEmbedder({ maxBatchSize: 32 }) },
    { name: `${workers} worker threads, passes of 8`, embedder: createUseLiteEmbedder({ maxBatchSize: 8, workers }) },
    { name: `${workers} worker threads, passes of 16`, embedder: createUseLiteEmbedder({ maxBatchSize: 16, workers }) },
  ];
  // Warm up (model loads) outside the timing.
  for (const { embedder } of configs) await embedder.embed({ texts: texts.slice(0, 16), kind: 'passage' });
  const times = configs.map(() => [] as number[]);
  const vectors: Float32Array[][] = configs.map(() => []);
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (let offset = 0; offset < configs.length; offset++) {
      const position = (repeat + offset) % configs.length;
      const started = performance.now();
      const { embeddings } = await (configs[position] as { embedder: UseLiteEmbedder }).embedder.embed({ texts, kind: 'passage' });
      (times[position] as number[]).push(performance.now() - started);
      vectors[position] = embeddings;
      process.stderr.write(`repeat ${repeat + 1}: ${(configs[position] as { name: string }).name}: ${(texts.length / ((performance.now() - started) / 1000)).toFixed(1)} sentences/s\n`);
    }
  }
  const maxDifference = (a: Float32Array[], b: Float32Array[]) => {
    let max = 0;
    a.forEach((vector, row) => vector.forEach((value, column) => (max = Math.max(max, Math.abs(value - ((b[row] as Float32Array)[column] as number))))));
    return max;
  };
  const rates = times.map((list) => texts.length / (median(list) / 1000));
  const base = rates[0] as number;
  const summary = {
    sentences: texts.length,
    repeats,
    loadBefore,
    loadAfter: execSync('uptime').toString().trim(),
    configs: configs.map((config, position) => ({ name: config.name, sentencesPerSecond: rates[position], ratioToDefault: (rates[position] as number) / base, medianSeconds: median(times[position] as number[]) / 1000 })),
    workerVsSingleMaxAbsDifference: { passesOf8: maxDifference(vectors[2] as Float32Array[], vectors[0] as Float32Array[]) },
  };
  for (const { embedder } of configs) embedder.dispose();
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'throughput.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const lines = [
    `# USE-lite throughput: ${texts.length} SciFact sentences, ${repeats} repeats (median), rotating order`,
    '',
    `Shared 2-core machine. Load before: \`${loadBefore}\`; after: \`${summary.loadAfter}\`.`,
    '',
    '| configuration | sentences/s | × default |',
    '|---|---:|---:|',
    ...summary.configs.map((config) => `| ${config.name} | ${(config.sentencesPerSecond as number).toFixed(1)} | ${config.ratioToDefault.toFixed(2)} |`),
    '',
    `Worker vectors vs calling-thread vectors (passes of 8): max |difference| = ${summary.workerVsSingleMaxAbsDifference.passesOf8}.`,
    '',
  ];
  writeFileSync(join(here, 'results', 'throughput.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
  process.exit(0);
}

void main();
