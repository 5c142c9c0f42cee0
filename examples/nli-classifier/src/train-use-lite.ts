/**
 * Trains the GloVe + USE-lite feature NLI classifier shipped in @factkit/nli-models (GLOVE_USE_LITE_NLI_WEIGHTS) and
 * evaluates it on the same held-out claims as train.ts, per source.
 *
 *   pnpm --filter nli-classifier train-all   # ... build-pairs, train.ts, embed-sentences.ts, this script
 *
 * Input per pair: the 45 NLI_FEATURE_NAMES (GloVe alignment, WordNet antonyms, negation, mismatches, cues), optionally
 * their 990 pairwise products (L2 1e-2, as train.ts chose for the GloVe-only weights), then the InferSent features [u, v, |u−v|, u⊙v] (Conneau et al., 2017) of the USE-lite sentence vectors of premise (u) and
 * hypothesis (v), read from the cache written by embed-sentences.ts. Model: class-balanced softmax regression + L2
 * (1e-3 on the named features, a larger strength on the 2,048 sentence-vector columns), mini-batch Adam, seeded:
 * deterministic. Products or not and the L2 strength of the sentence-vector block are chosen on the same validation split of the training
 * claims as train.ts (20% of training groups; mean per-source macro-F1), then the model is refit on all training pairs.
 * Held-out evaluation goes through the package's createFeatureNliModel with the real GloVe embedder and a USE-lite
 * embedder served from the cache (vectors computed by createUseLiteEmbedder; a miss is embedded for real).
 *
 * Writes packages/nli-models/src/feature/glove-use-lite-nli-weights.json and output/report-use-lite.md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import type { FeatureNliWeights } from '@factkit/nli-models';
import { NLI_FEATURE_NAMES, buildNliFeatureVector, createFeatureNliModel, embedForNli } from '@factkit/nli-models';
import { USE_LITE_DIMENSIONS, createUseLiteEmbedder } from '@factkit/use-lite';
import { cachedVector, readUseLiteCache } from './embed-sentences.js';
import { LABELS, SEED, SOURCES, macroF1PerSource, meanOverSources, positionsOf, round, score, scoreAt, splitExamples } from './evaluation.js';
import type { LabelledPair } from './shared.js';
import { OUTPUT_DIR, REPO_DIR, readJsonl } from './shared.js';
import { type SoftmaxModel, fitSoftmaxRegression, predictSoftmax } from './softmax-regression.js';

const EPOCHS = 30;
const BATCH = 64;
const LEARNING_RATE = 0.005;
const L2_NAMED = 1e-3;
/** Settings compared on the validation split: products of the named features or not (L2 1e-2 on them, as train.ts chose), L2 of the USE-lite block. */
const GRID: readonly { interactions: boolean; l2Extra: number }[] = [...[0.03, 0.1, 0.3].map((l2Extra) => ({ interactions: false, l2Extra })), ...[0.3, 1].map((l2Extra) => ({ interactions: true, l2Extra }))];
const L2_PRODUCTS = 1e-2;
const PRODUCTS = (NLI_FEATURE_NAMES.length * (NLI_FEATURE_NAMES.length - 1)) / 2;
const started = Date.now();
const log = (message: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);

const pairs = readJsonl<LabelledPair>(join(OUTPUT_DIR, 'pairs.jsonl'));
const cache = readUseLiteCache();
const missing = pairs.filter((pair) => !cachedVector(cache, pair.premise) || !cachedVector(cache, pair.hypothesis)).length;
if (missing > 0) throw new Error(`${missing} pairs have no cached USE-lite vectors: run embed-sentences.ts first`);
log(`${pairs.length} pairs, ${cache.size} cached USE-lite vectors; loading GloVe`);
const glove = createGloveEmbedder();
const vectors = await embedForNli(glove, pairs);
const NAMED = NLI_FEATURE_NAMES.length;
const layout = { interactions: true, pairEmbedding: false, dimensions: glove.dimensions, sentenceEncoderDimensions: USE_LITE_DIMENSIONS };
const encoded = new Map<string, Float32Array>();
for (const pair of pairs) for (const text of [pair.premise, pair.hypothesis]) encoded.set(text, cachedVector(cache, text) as Float32Array);
interface Example {
  readonly pair: LabelledPair;
  readonly full: Float64Array;
  readonly target: number;
}
const examples: Example[] = pairs.map((pair) => ({ pair, full: buildNliFeatureVector(pair, vectors, layout, encoded), target: LABELS.indexOf(pair.label) }));
/** The input of a setting: the full vector, or without the products of the named features. */
const inputOf = (full: Float64Array, interactions: boolean) => (interactions ? full : Float64Array.from([...full.subarray(0, NAMED), ...full.subarray(NAMED + PRODUCTS)]));
const { train, test, fitPart, validationPart } = splitExamples(examples);
log(`features ready (${NAMED} named + ${PRODUCTS} products + 4 x ${USE_LITE_DIMENSIONS}); train ${train.length}, held-out ${test.length}`);

interface Trained extends SoftmaxModel {
  readonly interactions: boolean;
}

/** fitSoftmaxRegression over the setting's input: L2_NAMED on the named features, L2_PRODUCTS on their products, l2Extra on USE-lite. */
function fit(data: readonly Example[], setting: (typeof GRID)[number]): Trained {
  const { interactions, l2Extra } = setting;
  const productsEnd = interactions ? NAMED + PRODUCTS : NAMED;
  const model = fitSoftmaxRegression(
    data.map((example) => inputOf(example.full, interactions)),
    data.map((example) => example.target),
    { classes: LABELS.length, epochs: EPOCHS, batchSize: BATCH, learningRate: LEARNING_RATE, seed: SEED, l2: (i) => (i < NAMED ? L2_NAMED : i < productsEnd ? L2_PRODUCTS : l2Extra) },
  );
  return { ...model, interactions };
}

function predict(model: Trained, full: Float64Array): number {
  return predictSoftmax(model, inputOf(full, model.interactions));
}

// 1. Selection on the validation split of the training claims (the same split as train.ts).
const selection = GRID.map((setting) => {
  const model = fit(fitPart, setting);
  const bySource = macroF1PerSource(
    validationPart,
    validationPart.map((example) => LABELS[predict(model, example.full)] as string),
  );
  const mean = round(meanOverSources(bySource));
  log(`${JSON.stringify(setting)}: validation macro-F1 per source ${JSON.stringify(bySource)}, mean ${mean}`);
  return { setting, validationMacroF1: bySource, validationMeanSourceMacroF1: mean };
});
const best = selection.reduce((a, b) => (b.validationMeanSourceMacroF1 > a.validationMeanSourceMacroF1 ? b : a)).setting;

// 2. Refit on all training pairs.
const model = fit(train, best);
log(`refit on ${train.length} training pairs with ${JSON.stringify(best)}`);
const trainScore = score(
  train.map((example) => example.pair.label),
  train.map((example) => LABELS[predict(model, example.full)] as string),
);

// 3. Held-out evaluation through the package's own model (real GloVe; USE-lite vectors from the cache, misses embedded).
let realUseLite: Embedder | undefined;
const cachedUseLite: Embedder = {
  id: 'use-lite',
  dimensions: USE_LITE_DIMENSIONS,
  async embed({ texts, kind, abortSignal }) {
    const out = texts.map((text) => cachedVector(cache, text));
    const misses = texts.filter((_text, index) => out[index] === undefined);
    if (misses.length > 0) {
      realUseLite ??= createUseLiteEmbedder({ backend: 'auto' });
      const { embeddings } = await realUseLite.embed({ texts: misses, kind, ...(abortSignal ? { abortSignal } : {}) });
      let next = 0;
      out.forEach((vector, index) => {
        if (vector === undefined) out[index] = embeddings[next++] as Float32Array;
      });
    }
    return { embeddings: out as Float32Array[] };
  },
};
const weightsFile: FeatureNliWeights = {
  format: 'factkit-feature-nli',
  version: 2,
  embedderId: glove.id,
  dimensions: glove.dimensions,
  labels: LABELS,
  features: [...NLI_FEATURE_NAMES],
  interactions: best.interactions,
  pairEmbedding: false,
  sentenceEncoder: { embedderId: 'use-lite', dimensions: USE_LITE_DIMENSIONS },
  mean: Array.from(model.mean, round),
  std: Array.from(model.std, round),
  weights: model.weights.map((row) => Array.from(row, round)),
  bias: Array.from(model.bias, round),
};
const featureModel = createFeatureNliModel({ embedder: glove, sentenceEmbedder: cachedUseLite, weights: weightsFile });
const { results } = await featureModel.classify({ pairs: test.map((example) => ({ premise: example.pair.premise, hypothesis: example.pair.hypothesis })) });
const predicted = results.map((result) => result.label ?? 'none');
const rows = [...SOURCES, 'all'].map((source) => {
  return { source, ...scoreAt(test, predicted, positionsOf(test, source as (typeof SOURCES)[number] | 'all')) };
});
const training = {
  script: 'examples/nli-classifier: pnpm --filter nli-classifier train-all (… embed-sentences.ts, train-use-lite.ts)',
  data: 'the pairs and split of glove-nli-weights.json (output/pairs.jsonl)',
  model: `softmax regression, class-balanced, named features (+ their products if chosen) + InferSent [u, v, |u-v|, u*v] of USE-lite sentence vectors, ${JSON.stringify(best)} chosen on validation, l2 ${L2_NAMED} (named) / ${L2_PRODUCTS} (products) / l2Extra (USE-lite block), Adam lr=${LEARNING_RATE}/(1+epoch/10), ${EPOCHS} epochs, batch ${BATCH}, seed ${SEED}`,
  selection,
  trainScore,
  heldOut: rows,
};
writeFileSync(join(REPO_DIR, 'packages', 'nli-models', 'src', 'feature', 'glove-use-lite-nli-weights.json'), `${JSON.stringify({ ...weightsFile, training })}\n`);
const table = [
  '| source | held-out pairs | GloVe + USE-lite acc | GloVe + USE-lite macro-F1 |',
  '|---|---:|---:|---:|',
  ...rows.map((row) => `| ${row.source} | ${row.n} | ${row.accuracy.toFixed(3)} | **${row.macroF1.toFixed(3)}** |`),
].join('\n');
process.stdout.write(`${table}\n`);
writeFileSync(join(OUTPUT_DIR, 'report-use-lite.md'), `# Held-out NLI scores per source, GloVe + USE-lite model\n\n${table}\n\nSelected ${JSON.stringify(best)}; train ${JSON.stringify(trainScore)}.\n`);
await (realUseLite as { dispose?: () => Promise<void> | void } | undefined)?.dispose?.();
log('done');
