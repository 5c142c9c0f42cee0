import { describeWithData } from '@factkit/test-utils';
import { type HeldOutPair, heldOutPairs, NLI_PAIR_DATASETS } from '@factkit/test-utils/nli-pairs';
import { describe, expect, it } from 'vitest';
import { NLI_LABELS } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import { computeClassificationReport } from '@factkit/metrics';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { GLOVE_NLI_WEIGHTS, GLOVE_USE_LITE_NLI_WEIGHTS, createFeatureNliModel } from '../src/feature/feature-nli-model.js';
import { createLexicalNliModel } from '../src/lexical/lexical-nli-model.js';

/**
 * Held-out evaluation of the shipped weights, recomputed here from scratch: every held-out pair (claims never used in
 * training or model selection; rebuilt here from the data root by heldOutPairs, the code examples/nli-classifier trains with) is classified by the
 * package's model with the real GloVe embedder, and scored with @factkit/metrics. Nothing is read from the training
 * script's scores. The majority-class baseline is the most frequent label among a source's held-out pairs (a stronger
 * baseline than the training majority).
 */

const scoreOf = (gold: readonly string[], predicted: readonly string[]) => {
  const report = computeClassificationReport(gold, predicted, { labels: NLI_LABELS });
  return { accuracy: report.accuracy, macroF1: report.macro.f1 };
};

// The held-out pairs are rebuilt from the data root while collecting (each suite classifies them before its tests): a
// missing dataset skips the suite, or fails it under CI=true.
describeWithData(NLI_PAIR_DATASETS, 'shipped GloVe NLI weights on the held-out pairs', async (_feverLite, dataRoot) => {
  const pairs: HeldOutPair[] = heldOutPairs(dataRoot);
  const model = createFeatureNliModel({ embedder: createGloveEmbedder() });
  const { results } = await model.classify({ pairs: pairs.map(({ premise, hypothesis }) => ({ premise, hypothesis })) });
  const predicted = results.map((result) => result.label ?? 'none');
  const thresholds = (GLOVE_NLI_WEIGHTS.training as { lexicalBaseline: { entailmentThreshold: number; contradictionThreshold: number } }).lexicalBaseline;
  const lexical = (await createLexicalNliModel(thresholds).classify({ pairs })).results.map((result) => result.label ?? 'none');
  const bySource = (source: string) => {
    const indexes = pairs.map((pair, index) => (pair.source === source ? index : -1)).filter((index) => index >= 0);
    const gold = indexes.map((index) => (pairs[index] as HeldOutPair).label);
    const counts = new Map<string, number>();
    for (const label of gold) counts.set(label, (counts.get(label) ?? 0) + 1);
    const majority = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
    return {
      n: indexes.length,
      feature: scoreOf(
        gold,
        indexes.map((index) => predicted[index] as string),
      ),
      lexical: scoreOf(
        gold,
        indexes.map((index) => lexical[index] as string),
      ),
      majority: scoreOf(
        gold,
        gold.map(() => majority),
      ),
    };
  };

  it('labels every pair', () => {
    expect(pairs.length).toBeGreaterThan(2000);
    expect(results.filter((result) => result.label === null)).toEqual([]);
  });

  it('reaches macro-F1 >= 0.65 on held-out FEVER-lite pairs, above the lexical baseline', () => {
    const fever = bySource('fever');
    expect(fever.n).toBeGreaterThan(500);
    expect(fever.feature.macroF1).toBeGreaterThanOrEqual(0.65);
    expect(fever.feature.macroF1).toBeGreaterThan(fever.lexical.macroF1);
  });

  // VitaminC has 79 held-out pairs (SE of an accuracy ~0.055); the gain is in macro-F1 (all three classes predicted),
  // while accuracy only ties the held-out majority label (see docs/nli-models.md).
  it('is clearly above the majority class on VitaminC pairs in macro-F1 and not below it in accuracy', () => {
    const vitaminc = bySource('vitaminc');
    expect(vitaminc.n).toBeGreaterThan(50);
    expect(vitaminc.feature.accuracy).toBeGreaterThanOrEqual(vitaminc.majority.accuracy);
    expect(vitaminc.feature.macroF1).toBeGreaterThanOrEqual(vitaminc.majority.macroF1 + 0.15);
    expect(vitaminc.feature.macroF1).toBeGreaterThan(vitaminc.lexical.macroF1);
  });

  // Pinned from the shipped weights (docs/nli-models.md): a retrained model that regresses fails here.
  it('keeps its published Climate-FEVER and FEVER-lite scores (pinned)', () => {
    expect(bySource('climate-fever').feature.macroF1).toBeCloseTo(0.454, 3);
    expect(bySource('fever').feature.macroF1).toBeCloseTo(0.718, 3);
  });

  it('beats the majority class on every source and the lexical baseline overall', () => {
    for (const source of ['fever', 'climate-fever', 'scifact', 'vitaminc', 'mnli']) {
      const scores = bySource(source);
      expect(scores.feature.macroF1, source).toBeGreaterThan(scores.majority.macroF1);
    }
    const all = scoreOf(
      pairs.map((pair) => pair.label),
      predicted,
    );
    const allLexical = scoreOf(
      pairs.map((pair) => pair.label),
      lexical,
    );
    expect(all.macroF1).toBeGreaterThan(allLexical.macroF1);
  });
});

/**
 * The GloVe + USE-lite weights (InferSent features of USE-lite sentence vectors added), recomputed with the real
 * USE-lite embedder on the held-out Climate-FEVER and VitaminC pairs (embedding all 2,280 pairs would take minutes on
 * a loaded machine; these are the sources the weights were added for). Scores are pinned to the published figures.
 */
describeWithData(NLI_PAIR_DATASETS, 'shipped GloVe + USE-lite NLI weights on held-out Climate-FEVER and VitaminC pairs', async (_feverLite, dataRoot) => {
  const pairs: HeldOutPair[] = heldOutPairs(dataRoot);
  const sentenceEmbedder = createUseLiteEmbedder();
  const picked = pairs.filter((pair) => pair.source === 'climate-fever' || pair.source === 'vitaminc');
  const model = createFeatureNliModel({ embedder: createGloveEmbedder(), sentenceEmbedder, weights: GLOVE_USE_LITE_NLI_WEIGHTS });
  const { results } = await model.classify({ pairs: picked.map(({ premise, hypothesis }) => ({ premise, hypothesis })) });
  sentenceEmbedder.dispose();
  const scoresOf = (source: string) => {
    const indexes = picked.map((pair, index) => (pair.source === source ? index : -1)).filter((index) => index >= 0);
    return scoreOf(
      indexes.map((index) => (picked[index] as HeldOutPair).label),
      indexes.map((index) => results[index]?.label ?? 'none'),
    );
  };

  it('labels every pair', () => {
    expect(results.filter((result) => result.label === null)).toEqual([]);
  });

  it('improves Climate-FEVER macro-F1 over the GloVe-only weights (0.454) and keeps its published score (pinned)', () => {
    const climate = scoresOf('climate-fever');
    expect(climate.macroF1).toBeGreaterThan(0.47);
    expect(climate.macroF1).toBeCloseTo(0.493, 3);
  });

  it('stays clearly above the majority class on VitaminC (pinned)', () => {
    const vitaminc = scoresOf('vitaminc');
    expect(vitaminc.macroF1).toBeCloseTo(0.466, 3);
  });
});
