// Offline encoder benchmark: USE-lite vs averaged GloVe vs a transformers.js static-embedding model built from the
// same GloVe vectors, on the same 1000 real SciFact sentences.
//
//   pnpm --filter @factkit/use-lite bench            (BENCH_REPEATS=5 BENCH_SENTENCES=1000 by default)
//
// Speed: each repeat embeds all sentences with every encoder, encoders in rotating order (peers in the same run);
// we report the median over repeats as sentences/s and ratios to the fastest. Model loading happens before timing
// and is reported separately (one cold measurement each). Quality sanity check: cosine of a paraphrase pair vs an
// unrelated pair. Results go to bench/results/embedders.{json,md}.
import { requireDataset } from '@factkit/test-utils/data';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { cosineSimilarity, type Embedder } from '@factkit/core';
import { createGloveEmbedder, loadGloveVectors } from '@factkit/glove';
import { createTransformersEmbedder } from '@factkit/transformers';
// The fixture writer lives with the transformers tests; the bench reuses it to build the static model from GloVe.
import { writeStaticEmbeddingModel } from '../../transformers/test/fixtures/onnx-fixtures.js';
import { createUseLiteEmbedder } from '../src/use-lite-embedder.js';

const here = dirname(fileURLToPath(import.meta.url));
const repeats = Number(process.env['BENCH_REPEATS'] ?? 5);
const sentenceCount = Number(process.env['BENCH_SENTENCES'] ?? 1000);
const sweepCount = Number(process.env['BENCH_SWEEP_SENTENCES'] ?? 200);
const sweepRepeats = 3;
const SWEEP_BATCH_SIZES = [1, 8, 32] as const;

const PAIRS = {
  anchor: 'A man is playing a guitar.',
  paraphrase: 'Someone plays the guitar.',
  unrelated: 'The stock market fell sharply today.',
} as const;

async function loadSentences(count: number): Promise<string[]> {
  const path = join(requireDataset('scifact'), 'corpus_sentences.jsonl.gz');
  const lines = gunzipSync(await readFile(path))
    .toString('utf8')
    .split('\n');
  const sentences: string[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as { abstract: string[] };
    for (const sentence of record.abstract) {
      if (sentence.length >= 20) sentences.push(sentence);
      if (sentences.length === count) return sentences;
    }
  }
  return sentences;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<void> {
  const sentences = await loadSentences(sentenceCount);
  const started = performance.now();
  const vectors = await loadGloveVectors();
  const gloveLoadMs = performance.now() - started;

  // Static transformers.js model over the GloVe rows of every word (\w+ token, as its Whitespace pre-tokenizer
  // splits) in the bench texts; punctuation and unknown words map to a zero [UNK] row.
  const words = new Set<string>();
  for (const text of [...sentences, ...Object.values(PAIRS)]) {
    for (const token of text.toLowerCase().match(/\w+/g) ?? []) if (vectors.indexOf(token) >= 0) words.add(token);
  }
  const root = await mkdtemp(join(tmpdir(), 'factkit-bench-'));
  const modelPath = join(root, 'glove-static');
  await writeStaticEmbeddingModel({
    directory: modelPath,
    dimensions: vectors.dimensions,
    vectors: [...words].map((word) => [word, vectors.vectorOf(word) as Float32Array] as const),
  });

  const encoders: Array<{ name: string; embedder: Embedder; loadMs: number }> = [];
  for (const [name, make] of [
    ['use-lite (TF.js WASM)', () => createUseLiteEmbedder()],
    ['glove-100d average', () => createGloveEmbedder({ vectors })],
    ['transformers.js static GloVe fixture', () => createTransformersEmbedder({ modelPath, maxBatchSize: 64 })],
  ] as const) {
    const embedder = make();
    const t0 = performance.now();
    await embedder.embed({ texts: ['warm up'], kind: 'passage' });
    encoders.push({ name, embedder, loadMs: performance.now() - t0 + (name.startsWith('glove') ? gloveLoadMs : 0) });
  }

  const timings = new Map<string, number[]>(encoders.map((encoder) => [encoder.name, []]));
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    for (let offset = 0; offset < encoders.length; offset += 1) {
      const encoder = encoders[(repeat + offset) % encoders.length] as (typeof encoders)[number];
      const t0 = performance.now();
      const { embeddings } = await encoder.embedder.embed({ texts: sentences, kind: 'passage' });
      const elapsed = performance.now() - t0;
      if (embeddings.length !== sentences.length) throw new Error(`${encoder.name} returned ${embeddings.length} vectors`);
      timings.get(encoder.name)?.push(elapsed);
    }
  }

  // Agreement check: the static transformers.js model and the GloVe average should point the same way
  // (they differ only where the two tokenizers split words differently, e.g. hyphenated compounds).
  const [, gloveEncoder, staticEncoder] = encoders as [(typeof encoders)[number], (typeof encoders)[number], (typeof encoders)[number]];
  const gloveAll = await gloveEncoder.embedder.embed({ texts: sentences, kind: 'passage' });
  const staticAll = await staticEncoder.embedder.embed({ texts: sentences, kind: 'passage' });
  const agreement = median(sentences.map((_, index) => cosineSimilarity(gloveAll.embeddings[index] as Float32Array, staticAll.embeddings[index] as Float32Array)));

  const rows = [];
  for (const encoder of encoders) {
    const { embeddings } = await encoder.embedder.embed({ texts: [PAIRS.anchor, PAIRS.paraphrase, PAIRS.unrelated], kind: 'passage' });
    const [anchor, paraphrase, unrelated] = embeddings as [Float32Array, Float32Array, Float32Array];
    const medianMs = median(timings.get(encoder.name) ?? []);
    rows.push({
      encoder: encoder.name,
      id: encoder.embedder.id,
      dimensions: encoder.embedder.dimensions,
      loadMs: Math.round(encoder.loadMs),
      medianMs: Math.round(medianMs),
      timingsMs: (timings.get(encoder.name) ?? []).map(Math.round),
      sentencesPerSecond: Math.round((sentences.length / medianMs) * 1000),
      cosineParaphrase: Number(cosineSimilarity(anchor, paraphrase).toFixed(4)),
      cosineUnrelated: Number(cosineSimilarity(anchor, unrelated).toFixed(4)),
    });
  }
  // USE-lite forward-pass size sweep (why maxBatchSize defaults to 8), on the first sweepCount sentences.
  const sweepTexts = sentences.slice(0, sweepCount);
  const sweepEmbedders = SWEEP_BATCH_SIZES.map((size) => ({ size, embedder: createUseLiteEmbedder({ maxBatchSize: size }) }));
  for (const { embedder } of sweepEmbedders) await embedder.embed({ texts: ['warm up'], kind: 'passage' });
  const sweepTimes = new Map<number, number[]>(SWEEP_BATCH_SIZES.map((size) => [size, []]));
  for (let repeat = 0; repeat < sweepRepeats; repeat += 1) {
    for (let offset = 0; offset < sweepEmbedders.length; offset += 1) {
      const { size, embedder } = sweepEmbedders[(repeat + offset) % sweepEmbedders.length] as (typeof sweepEmbedders)[number];
      const t0 = performance.now();
      await embedder.embed({ texts: sweepTexts, kind: 'passage' });
      sweepTimes.get(size)?.push(performance.now() - t0);
    }
  }
  const sweep = SWEEP_BATCH_SIZES.map((size) => ({ maxBatchSize: size, sentencesPerSecond: Math.round((sweepTexts.length / median(sweepTimes.get(size) ?? [])) * 10000) / 10 }));

  const fastest = Math.max(...rows.map((row) => row.sentencesPerSecond));
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version },
    sentences: sentences.length,
    source: 'scifact/corpus_sentences.jsonl.gz (data root) (first sentences >= 20 chars, in file order)',
    repeats,
    pairs: PAIRS,
    staticFixtureVocabulary: words.size,
    medianCosineGloveVsStaticFixture: Number(agreement.toFixed(6)),
    encoders: rows.map((row) => ({ ...row, ratioToFastest: Number((row.sentencesPerSecond / fastest).toFixed(3)) })),
    useLiteBatchSweep: { sentences: sweepTexts.length, repeats: sweepRepeats, results: sweep },
  };

  const table = [
    '| encoder | dims | load (ms, cold) | median ms / 1000 sent. | sentences/s | × fastest | cos(paraphrase) | cos(unrelated) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...result.encoders.map((row) => `| ${row.encoder} | ${row.dimensions} | ${row.loadMs} | ${row.medianMs} | ${row.sentencesPerSecond} | ${row.ratioToFastest} | ${row.cosineParaphrase} | ${row.cosineUnrelated} |`),
  ].join('\n');
  const markdown = [
    '# Offline encoder benchmark',
    '',
    `${result.sentences} SciFact sentences, ${repeats} repeats (median), encoders in rotating order; ${result.machine.cpus} × ${result.machine.cpuModel}, Node ${result.machine.node}; ${result.date}.`,
    `Paraphrase pair: "${PAIRS.anchor}" / "${PAIRS.paraphrase}"; unrelated: "${PAIRS.unrelated}".`,
    '',
    table,
    '',
    `Static fixture: ${result.staticFixtureVocabulary} GloVe words; median cosine(GloVe average, static fixture) over the sentences = ${result.medianCosineGloveVsStaticFixture}.`,
    '',
    `USE-lite forward-pass size (\`maxBatchSize\`), ${sweepTexts.length} sentences, median of ${sweepRepeats}: ` + sweep.map((entry) => `${entry.maxBatchSize} → ${entry.sentencesPerSecond} sent/s`).join(', ') + '.',
    '',
    'Machine shared with other jobs: compare ratios within one run, not absolute numbers across runs.',
    '',
  ].join('\n');
  const outDir = join(here, 'results');
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'embedders.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(join(outDir, 'embedders.md'), markdown);
  await rm(root, { recursive: true, force: true });
  process.stdout.write(`${markdown}\nwrote ${join(outDir, 'embedders.json')} and embedders.md\n`);
}

await main();
