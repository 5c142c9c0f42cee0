/**
 * Throughput of the offline NLI models on the shipped held-out pairs (real FEVER / Climate-FEVER / SciFact / VitaminC /
 * MultiNLI texts): the lexical baseline, and the feature model with the real GloVe embedder (vectors loaded once
 * before timing, so this measures feature extraction + classification, including the per-call embedding lookups).
 * Medians over repeats; peers run in the same process, and ratios are reported against the lexical model.
 * The machine may be shared: compare ratios, not absolute times.
 *   pnpm --filter @factkit/nli-models bench
 */
import { performance } from 'node:perf_hooks';
import { createGloveEmbedder } from '@factkit/glove';
import { heldOutPairs, requireNliPairDataRoot } from '@factkit/test-utils/nli-pairs';
import { createFeatureNliModel, createLexicalNliModel } from '../src/index.js';

const REPEATS = 7;
// The held-out pairs, rebuilt from the data root (see test/held-out.test.ts).
const pairs = heldOutPairs(requireNliPairDataRoot()).map(({ premise, hypothesis }) => ({ premise, hypothesis }));
const lexical = createLexicalNliModel();
const embedder = createGloveEmbedder();
await embedder.embed({ texts: ['warm up'], kind: 'passage' });
const feature = createFeatureNliModel({ embedder });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function time(name: string, run: () => Promise<unknown>): Promise<{ name: string; ms: number }> {
  await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return { name, ms: median(samples) };
}

const results = [await time(`lexical classify (${pairs.length} pairs)`, () => lexical.classify({ pairs })), await time(`feature classify (${pairs.length} pairs, GloVe)`, () => feature.classify({ pairs }))];
const base = results[0]?.ms ?? 1;
process.stdout.write(`| benchmark | median ms (${REPEATS} runs) | ratio vs lexical classify |\n|---|---:|---:|\n`);
for (const result of results) process.stdout.write(`| ${result.name} | ${result.ms.toFixed(2)} | ${(result.ms / base).toFixed(2)} |\n`);
