// USE-lite throughput: the old path (TF.js graph on the wasm backend, calling thread, passes of 8 — the default)
// against worker threads and the ONNX Runtime backend, on the same real sentences, in the same run, configurations in
// rotating order; medians over repeats, ratios to the old path, CPU time, and the vector differences between paths.
//
//   pnpm --filter @factkit/use-lite bench      (BENCH_SENTENCES=2000 BENCH_REPEATS=3; BENCH_ONLY=id,id to pick configs)
//
// Results: bench/results/throughput.{json,md,svg}. The machine is shared: load averages are recorded beside the figures.
import { requireDataset } from '@factkit/test-utils/data';
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createUseLiteEmbedder, type UseLiteEmbedder, type UseLiteEmbedderOptions } from '../src/index.js';
import { maxAbsDifference, median } from './bench-utils.js';

const here = dirname(fileURLToPath(import.meta.url));
const sentenceCount = Number(process.env['BENCH_SENTENCES'] ?? 2000);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);
const only = process.env['BENCH_ONLY']?.split(',');

/** The first `count` SciFact abstract sentences of at least 20 characters (the data root's scifact/). */
function sentences(count: number): string[] {
  const out: string[] = [];
  for (const line of gunzipSync(readFileSync(join(requireDataset('scifact'), 'corpus_sentences.jsonl.gz')))
    .toString('utf8')
    .split('\n')) {
    if (!line.trim()) continue;
    for (const sentence of (JSON.parse(line) as { abstract: string[] }).abstract) if (sentence.length >= 20 && out.length < count) out.push(sentence);
    if (out.length >= count) break;
  }
  return out;
}

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

interface Config {
  readonly id: string;
  readonly name: string;
  readonly options: UseLiteEmbedderOptions;
}

const ALL_CONFIGS: Config[] = [
  { id: 'wasm-b8', name: 'wasm, calling thread, passes of 8 (old path, default)', options: { maxBatchSize: 8 } },
  { id: 'wasm-b1', name: 'wasm, calling thread, one sentence per pass', options: { maxBatchSize: 1 } },
  { id: 'wasm-2w-b16', name: 'wasm, 2 worker threads, passes of 16', options: { maxBatchSize: 16, workers: 2 } },
  { id: 'onnx-b1', name: 'onnx, 1 thread, one sentence per pass', options: { backend: 'onnx', maxBatchSize: 1 } },
  { id: 'onnx-b8', name: 'onnx, 1 thread, passes of 8', options: { backend: 'onnx', maxBatchSize: 8 } },
  { id: 'onnx-b32', name: 'onnx, 1 thread, passes of 32', options: { backend: 'onnx', maxBatchSize: 32 } },
  { id: 'onnx-2t-b32', name: 'onnx, 2 intra-op threads, passes of 32', options: { backend: 'onnx', maxBatchSize: 32, threads: 2 } },
];
// The wasm single-sentence path is slow (hours-scale at 2,000 sentences on a busy machine): only when asked for.
const DEFAULT_IDS = ['wasm-b8', 'wasm-2w-b16', 'onnx-b1', 'onnx-b8', 'onnx-b32', 'onnx-2t-b32'];

function svgChart(rows: ReadonlyArray<{ name: string; rate: number }>, title: string): string {
  const width = 760;
  const barArea = 380;
  const rowHeight = 28;
  const top = 40;
  const max = Math.max(...rows.map((row) => row.rate));
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const bars = rows.map((row, index) => {
    const y = top + index * rowHeight;
    const barWidth = (row.rate / max) * barArea;
    return `<text x="360" y="${y + 18}" text-anchor="end" font-size="12">${escape(row.name)}</text><rect x="370" y="${y + 5}" width="${barWidth.toFixed(1)}" height="18" fill="${row.name.startsWith('onnx') ? '#2b7bb9' : '#999'}"/><text x="${(376 + barWidth).toFixed(1)}" y="${y + 18}" font-size="12">${row.rate.toFixed(1)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top + rows.length * rowHeight + 20}" font-family="sans-serif"><text x="10" y="22" font-size="14">${escape(title)}</text>${bars.join('')}</svg>\n`;
}

async function main(): Promise<void> {
  const loadBefore = load();
  const uptimeBefore = execSync('uptime').toString().trim();
  const texts = sentences(sentenceCount);
  const configs = ALL_CONFIGS.filter((config) => (only ?? DEFAULT_IDS).includes(config.id));
  const embedders: UseLiteEmbedder[] = configs.map((config) => createUseLiteEmbedder(config.options));
  // Warm up (model loads, worker start) outside the timing.
  for (const embedder of embedders) await embedder.embed({ texts: texts.slice(0, 16), kind: 'passage' });
  const wall = configs.map(() => [] as number[]);
  const cpu = configs.map(() => [] as number[]);
  const loads = configs.map(() => [] as string[]);
  const vectors: Float32Array[][] = configs.map(() => []);
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (let offset = 0; offset < configs.length; offset++) {
      const position = (repeat + offset) % configs.length;
      const config = configs[position] as Config;
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      const { embeddings } = await (embedders[position] as UseLiteEmbedder).embed({ texts, kind: 'passage' });
      const seconds = (performance.now() - started) / 1000;
      const cpuUsed = process.cpuUsage(cpuStart);
      (wall[position] as number[]).push(seconds);
      (cpu[position] as number[]).push((cpuUsed.user + cpuUsed.system) / 1e6);
      (loads[position] as string[]).push(load());
      vectors[position] = embeddings;
      process.stderr.write(`repeat ${repeat + 1}/${repeats}: ${config.name}: ${(texts.length / seconds).toFixed(1)} sentences/s (load ${load()})\n`);
    }
  }
  const rates = wall.map((list) => texts.length / median(list));
  const baseIndex = configs.findIndex((config) => config.id === 'wasm-b8');
  const base = baseIndex >= 0 ? (rates[baseIndex] as number) : Number.NaN;
  const vectorsOf = (id: string) => vectors[configs.findIndex((config) => config.id === id)];
  const difference = (a: string, b: string) => {
    const [va, vb] = [vectorsOf(a), vectorsOf(b)];
    return va && vb ? maxAbsDifference(va, vb) : null;
  };
  const summary = {
    sentences: texts.length,
    source: 'scifact/corpus_sentences.jsonl.gz (data root), first sentences of >= 20 characters',
    repeats,
    loadBefore,
    uptimeBefore,
    loadAfter: load(),
    configs: configs.map((config, position) => ({
      id: config.id,
      name: config.name,
      sentencesPerSecond: rates[position],
      ratioToOldPath: (rates[position] as number) / base,
      medianSeconds: median(wall[position] as number[]),
      wallSeconds: wall[position],
      cpuSecondsPer1000Sentences: (median(cpu[position] as number[]) / texts.length) * 1000,
      loadAfterEachRepeat: loads[position],
    })),
    maxAbsDifference: {
      wasmWorkersVsWasmSingleThread: difference('wasm-2w-b16', 'wasm-b8'),
      onnxTwoThreadsVsOnnxOneThread: difference('onnx-2t-b32', 'onnx-b32'),
      onnxPasses1VsPasses32: difference('onnx-b1', 'onnx-b32'),
      onnxVsOldWasmPath: difference('onnx-b8', 'wasm-b8'),
    },
  };
  for (const embedder of embedders) embedder.dispose();
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'throughput.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const show = (value: number | null) => (value === null ? 'not measured' : value.toExponential(2));
  const lines = [
    `# USE-lite throughput: ${texts.length} SciFact sentences, ${repeats} repeats (median), rotating order`,
    '',
    `Shared 2-core machine (other jobs running). Load average (1/5/15 min) before: ${loadBefore}; after: ${summary.loadAfter}.`,
    '',
    '| configuration | sentences/s | × old path | CPU s / 1000 sentences |',
    '|---|---:|---:|---:|',
    ...summary.configs.map((config) => `| ${config.name} | ${(config.sentencesPerSecond as number).toFixed(1)} | ${config.ratioToOldPath.toFixed(2)} | ${config.cpuSecondsPer1000Sentences.toFixed(1)} |`),
    '',
    'Max |difference| between the vectors of two paths (same 2,000 sentences):',
    '',
    `- wasm, 2 worker threads vs wasm calling thread: ${show(summary.maxAbsDifference.wasmWorkersVsWasmSingleThread)}`,
    `- onnx, 2 intra-op threads vs 1 thread: ${show(summary.maxAbsDifference.onnxTwoThreadsVsOnnxOneThread)}`,
    `- onnx, passes of 1 vs passes of 32: ${show(summary.maxAbsDifference.onnxPasses1VsPasses32)}`,
    `- onnx vs the old wasm path: ${show(summary.maxAbsDifference.onnxVsOldWasmPath)}`,
    '',
  ];
  writeFileSync(join(here, 'results', 'throughput.md'), lines.join('\n'));
  writeFileSync(
    join(here, 'results', 'throughput.svg'),
    svgChart(
      summary.configs.map((config) => ({ name: config.name, rate: config.sentencesPerSecond as number })),
      `USE-lite sentences/s, ${texts.length} SciFact sentences, median of ${repeats} (shared 2-core machine, load ${loadBefore.split(' ')[0]})`,
    ),
  );
  process.stdout.write(lines.join('\n'));
  process.exit(0);
}

void main();
