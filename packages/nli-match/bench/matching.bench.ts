/**
 * Throughput of matching (segmentation, claim-reproduction removal, NLI of every pair, aggregation) with the lexical
 * NLI model of @factkit/nli-models, on real held-out FEVER / Climate-FEVER / SciFact / VitaminC / MultiNLI pairs
 * (generation = hypothesis + premise, evidence = premise). Medians over repeats; the machine may be shared.
 *   pnpm --filter @factkit/nli-match bench
 */
import { performance } from 'node:perf_hooks';
import { createLexicalNliModel } from '@factkit/nli-models';
import { heldOutPairs, requireNliPairDataRoot } from '@factkit/test-utils/nli-pairs';
import { matchGenerationsToEvidence } from '../src/index.js';

const REPEATS = 7;
// nli-models' held-out pairs, rebuilt from the data root.
const pairs = heldOutPairs(requireNliPairDataRoot());
const items = pairs.map((pair, index) => ({ id: String(index), claim: pair.hypothesis, generation: `${pair.hypothesis} ${pair.premise}`, evidence: [pair.premise] }));
const nli = createLexicalNliModel();
const samples: number[] = [];
await matchGenerationsToEvidence({ items, nli });
for (let i = 0; i < REPEATS; i += 1) {
  const start = performance.now();
  await matchGenerationsToEvidence({ items, nli });
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
process.stdout.write(`| benchmark | median ms (${REPEATS} runs) |\n|---|---:|\n| match ${items.length} claims (lexical NLI) | ${(samples[Math.floor(REPEATS / 2)] as number).toFixed(2)} |\n`);
