// USE-lite backends × pass sizes × intra-op threads on the same SciFact sentences, in one process, configurations in
// rotating order; medians over repeats, ratios to the old default (wasm, passes of 8), and the max vector difference
// of every configuration from the onnx reference (1 thread, passes of 8) and of onnx from wasm.
//
//   tsx bench/backends.bench.ts      (BENCH_SENTENCES=300 BENCH_REPEATS=3; BENCH_ONLY=id,id to pick configs)
//
// Results: bench/results/backends.{json,md}. The machine is shared: `uptime` before and after is recorded.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUseLiteEmbedder, type UseLiteEmbedder, type UseLiteEmbedderOptions } from '../src/index.js';
import { benchSentences, maxAbsDifference, median, uptime } from './bench-utils.js';

const here = dirname(fileURLToPath(import.meta.url));
const sentenceCount = Number(process.env['BENCH_SENTENCES'] ?? 300);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);
const only = process.env['BENCH_ONLY']?.split(',');

const CONFIGS: { id: string; options: UseLiteEmbedderOptions }[] = [
  { id: 'wasm-b8', options: { maxBatchSize: 8 } },
  ...[1, 2].flatMap((threads) => [8, 16, 32].map((batch) => ({ id: `onnx-t${threads}-b${batch}`, options: { backend: 'onnx' as const, maxBatchSize: batch, threads } }))),
];

async function main(): Promise<void> {
  const texts = benchSentences(sentenceCount);
  const configs = CONFIGS.filter((config) => !only || only.includes(config.id));
  const embedders: UseLiteEmbedder[] = configs.map((config) => createUseLiteEmbedder(config.options));
  // Load every model outside the timed runs.
  for (const embedder of embedders) await embedder.embed({ texts: texts.slice(0, 4), kind: 'passage' });
  const uptimeBefore = uptime();
  const wall = configs.map(() => [] as number[]);
  const vectors: Float32Array[][] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (let offset = 0; offset < configs.length; offset++) {
      const position = (repeat + offset) % configs.length;
      const started = performance.now();
      const { embeddings } = await (embedders[position] as UseLiteEmbedder).embed({ texts, kind: 'passage' });
      const seconds = (performance.now() - started) / 1000;
      (wall[position] as number[]).push(seconds);
      vectors[position] = embeddings;
      process.stderr.write(`repeat ${repeat + 1}/${repeats}: ${(configs[position] as (typeof configs)[number]).id}: ${(texts.length / seconds).toFixed(1)} sentences/s\n`);
    }
  }
  const uptimeAfter = uptime();
  for (const embedder of embedders) embedder.dispose();
  const rates = wall.map((list) => texts.length / median(list));
  const baseIndex = configs.findIndex((config) => config.id === 'wasm-b8');
  const referenceIndex = configs.findIndex((config) => config.id === 'onnx-t1-b8');
  const rows = configs.map((config, position) => ({
    id: config.id,
    backend: config.options.backend ?? 'wasm',
    passSize: config.options.maxBatchSize,
    threads: config.options.backend === 'onnx' ? (config.options.threads ?? 1) : null,
    sentencesPerSecond: rates[position] as number,
    ratioToWasmB8: baseIndex >= 0 ? (rates[position] as number) / (rates[baseIndex] as number) : null,
    wallSeconds: wall[position],
    maxAbsDifferenceFromOnnxT1B8: referenceIndex >= 0 ? maxAbsDifference(vectors[position] as Float32Array[], vectors[referenceIndex] as Float32Array[]) : null,
  }));
  const summary = { sentences: texts.length, source: 'scifact/corpus_sentences.jsonl.gz (data root), first sentences', repeats, uptimeBefore, uptimeAfter, rows };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'backends.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const lines = [
    `# USE-lite backends × pass size × threads: ${texts.length} SciFact sentences, ${repeats} repeats (median), rotating order`,
    '',
    `Shared 2-core machine (other jobs running). \`uptime\` before: \`${uptimeBefore}\`; after: \`${uptimeAfter}\`.`,
    '',
    '| configuration | backend | pass size | intra-op threads | sentences/s | × wasm, passes of 8 | max \\|difference\\| from onnx, 1 thread, passes of 8 |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.id} | ${row.backend} | ${row.passSize} | ${row.threads ?? '–'} | ${row.sentencesPerSecond.toFixed(1)} | ${row.ratioToWasmB8 === null ? 'n/a' : row.ratioToWasmB8.toFixed(2)} | ${row.maxAbsDifferenceFromOnnxT1B8 === null ? 'n/a' : row.maxAbsDifferenceFromOnnxT1B8.toExponential(2)} |`,
    ),
    '',
  ];
  writeFileSync(join(here, 'results', 'backends.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
  process.exit(0);
}

void main();
