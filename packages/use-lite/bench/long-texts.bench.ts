// USE-lite time for ONE text of 12 / 25 / 50 / 100 KB and 1 MB (SciFact sentences joined, the data root's scifact/),
// on onnx (backend 'auto', passes of 16, 1 thread) and on wasm; sizes in rotating
// order, medians over repeats, and the ratio of each size's time to the previous size's (2.0 per doubling = linear).
// With BEFORE=<path to an older build's dist/index.js>, that build runs the sizes up to BEFORE_MAX_KB (default 25)
// once each for comparison (it was superlinear: 12 / 25 / 50 KB took 2.7 / 7.6 / 37.2 s in issue 21).
//
//   tsx bench/long-texts.bench.ts      (BENCH_REPEATS=3; BENCH_SIZES_KB=12,25,50,100,1000; WASM_MAX_KB=50;
//                                       BEFORE=/path/to/old/use-lite/dist/index.js BEFORE_MAX_KB=25)
//
// Results: bench/results/long-texts.{json,md}. The machine is shared: `uptime` before and after is recorded.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../src/index.js';
import { benchSentences, median, uptime } from './bench-utils.js';

const here = dirname(fileURLToPath(import.meta.url));
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);
const sizes = (process.env['BENCH_SIZES_KB'] ?? '12,25,50,100,1000').split(',').map(Number);
const before = process.env['BEFORE'];
const beforeMax = Number(process.env['BEFORE_MAX_KB'] ?? 25);
const wasmMax = Number(process.env['WASM_MAX_KB'] ?? 50);

async function time(embedder: { embed: UseLiteEmbedder['embed'] }, text: string): Promise<number> {
  const started = performance.now();
  await embedder.embed({ texts: [text], kind: 'passage' });
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const source = benchSentences(12_000).join(' ');
  const texts = sizes.map((kb) => {
    const target = kb * 1024;
    if (source.length >= target) return source.slice(0, target);
    return source.repeat(Math.ceil(target / source.length)).slice(0, target);
  });
  const systems: { id: string; embedder: UseLiteEmbedder }[] = [
    { id: 'onnx, passes of 16, 1 thread', embedder: createUseLiteEmbedder({ backend: 'auto', maxBatchSize: 16, threads: 1 }) },
    { id: 'wasm', embedder: createUseLiteEmbedder({ maxBatchSize: 16 }) },
  ];
  for (const { embedder } of systems) await embedder.embed({ texts: ['warm up'], kind: 'passage' });
  const uptimeBefore = uptime();
  const seconds = systems.map(() => sizes.map(() => [] as number[]));
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (let offset = 0; offset < sizes.length; offset++) {
      const position = (repeat + offset) % sizes.length;
      for (const [system, { id, embedder }] of systems.entries()) {
        // wasm is 4-5x slower: one repeat up to WASM_MAX_KB (default 50) shows its slope without hogging the machine.
        if (id === 'wasm' && ((sizes[position] as number) > wasmMax || repeat > 0)) continue;
        // 1 MB (~2,300 windows) takes minutes on a loaded machine: measured in the first repeat only.
        if ((sizes[position] as number) >= 1000 && repeat > 0) continue;
        const elapsed = await time(embedder, texts[position] as string);
        ((seconds[system] as number[][])[position] as number[]).push(elapsed);
        process.stderr.write(`repeat ${repeat + 1}: ${id} ${sizes[position]} KB: ${elapsed.toFixed(2)} s\n`);
      }
    }
  }
  let beforeRows: { kb: number; seconds: number }[] = [];
  if (before) {
    const module = (await import(pathToFileURL(before).href)) as { createUseLiteEmbedder: typeof createUseLiteEmbedder };
    const old = module.createUseLiteEmbedder({ maxBatchSize: 8 });
    await old.embed({ texts: ['warm up'], kind: 'passage' });
    beforeRows = [];
    for (const [position, kb] of sizes.entries()) {
      if (kb > beforeMax) continue;
      const elapsed = await time(old, texts[position] as string);
      beforeRows.push({ kb, seconds: elapsed });
      process.stderr.write(`before (${before}): ${kb} KB: ${elapsed.toFixed(2)} s\n`);
    }
    old.dispose();
  }
  const uptimeAfter = uptime();
  for (const { embedder } of systems) embedder.dispose();
  const rows = systems.map(({ id }, system) => ({
    id,
    sizes: sizes.map((kb, position) => {
      const list = seconds[system]?.[position] as number[];
      const previousList = position > 0 ? (seconds[system]?.[position - 1] as number[]) : [];
      const previous = previousList.length > 0 ? median(previousList) : null;
      const value = median(list);
      return {
        kb,
        characters: (texts[position] as string).length,
        medianSeconds: value,
        repeats: list.length,
        ratioToPreviousSize: previous === null ? null : value / previous,
        sizeRatio: position > 0 ? kb / (sizes[position - 1] as number) : null,
      };
    }),
  }));
  const summary = { source: 'scifact/corpus_sentences.jsonl.gz (data root), abstract sentences joined by spaces', repeats, uptimeBefore, uptimeAfter, rows, before: before ? { build: before, rows: beforeRows } : null };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'long-texts.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const lines = [
    `# USE-lite: one long text, ${repeats} repeats (median), sizes in rotating order`,
    '',
    `Shared 2-core machine (other jobs running). \`uptime\` before: \`${uptimeBefore}\`; after: \`${uptimeAfter}\`.`,
    '',
    '| backend | text | seconds | × previous size (size ratio) | repeats |',
    '|---|---:|---:|---:|---:|',
    ...rows.flatMap((row) =>
      row.sizes
        .filter((size) => size.repeats > 0)
        .map((size) => `| ${row.id} | ${size.kb} KB | ${size.medianSeconds.toFixed(2)} | ${size.ratioToPreviousSize === null ? '–' : `${size.ratioToPreviousSize.toFixed(2)} (${(size.sizeRatio as number).toFixed(2)})`} | ${size.repeats} |`),
    ),
    '',
    ...(before ? ['Before (old build, wasm, passes of 8, one run each):', '', ...beforeRows.map((row) => `- ${row.kb} KB: ${row.seconds.toFixed(2)} s`), ''] : []),
  ];
  writeFileSync(join(here, 'results', 'long-texts.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
  process.exit(0);
}

void main();
