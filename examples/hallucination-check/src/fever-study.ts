// Issue 20's table: verifier × aggregation on the FEVER-lite validation responses (the split settings are chosen on),
// beside the all-hallucinated, all-correct and BM25-top-1 baselines, and the chosen default once on the test responses.
// Splits: src/fever-splits.ts. Pipeline: offline drafter → BM25 top-10 over the pooled FEVER-lite evidence → NLI verifier.
//
//   pnpm --filter hallucination-check fever-study [-- --verifiers lexical,feature,feature-use] [--validation 400] [--no-test]
// Writes results/fever-study.md and results/fever-study.json. Unverifiable counts as not hallucinated (paper Tables 2/3).
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  type ClaimQueryGenerator,
  computeHallucinationMetrics,
  createDrafterGenerator,
  createNliVerifier,
  DEFAULT_NLI_AGGREGATION,
  DEFAULT_SOFT_THRESHOLD,
  type DetectionResult,
  detectHallucinations,
  NLI_AGGREGATIONS,
  type NliAggregation,
} from '@factkit/claim-query';
import type { Embedder, NliModel, NliPrediction } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import { createFeatureNliModel, createLexicalNliModel, GLOVE_USE_LITE_NLI_WEIGHTS } from '@factkit/nli-models';
import { createBm25Retriever } from '@factkit/retrieval';
import { NLI_PAIR_DATASETS } from '@factkit/test-utils/nli-pairs';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import type { ComposedResponse } from './fever-compose.js';
import { buildFeverSplits, TEST_SEED, VALIDATION_SEED } from './fever-splits.js';
import { needData, readArguments } from './shared.js';

needData('fever-lite', ...NLI_PAIR_DATASETS);
const args = readArguments(process.argv.slice(2));
const verifierNames = (args.get('verifiers') ?? 'lexical,feature').split(',');
const softThresholds = (args.get('soft') ?? `0.1,${DEFAULT_SOFT_THRESHOLD},0.5`).split(',').map(Number);
const splits = buildFeverSplits(args.has('validation') ? { validationResponses: Number(args.get('validation')) } : {});
const retriever = createBm25Retriever(splits.corpus);
const glove: Embedder = createGloveEmbedder();

/** Memoises an NLI model per (premise, hypothesis): each aggregation re-reads the same judgements. */
function memoised(model: NliModel): NliModel {
  const cache = new Map<string, NliPrediction>();
  return {
    id: model.id,
    async classify({ pairs, abortSignal }) {
      const key = (pair: { premise: string; hypothesis: string }) => `${pair.premise}\u0000${pair.hypothesis}`;
      const missing = pairs.filter((pair) => !cache.has(key(pair)));
      if (missing.length > 0) {
        const { results } = await model.classify({ pairs: missing, ...(abortSignal ? { abortSignal } : {}) });
        missing.forEach((pair, i) => {
          const result = results[i];
          if (result?.label) cache.set(key(pair), result);
        });
      }
      return { results: pairs.map((pair) => cache.get(key(pair)) ?? { label: null, problem: 'not classified' }) };
    },
  };
}

const models: Record<string, () => NliModel> = {
  lexical: () => createLexicalNliModel(),
  feature: () => createFeatureNliModel({ embedder: glove }),
  'feature-use': () => createFeatureNliModel({ embedder: glove, sentenceEmbedder: createUseLiteEmbedder(), weights: GLOVE_USE_LITE_NLI_WEIGHTS }),
};

interface Scores {
  readonly n: number;
  readonly accuracy: number | null;
  readonly balancedAccuracy: number | null;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
}
interface Row {
  readonly split: 'validation' | 'test';
  readonly system: string;
  readonly verifier: string;
  readonly aggregation: string;
  readonly sentence: Scores;
  readonly response: Scores;
  readonly unverifiableSentences: number;
  readonly failed: number;
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);
/** claim-query's scores (unverifiable counts as not hallucinated) with absent values as null for the JSON. */
function scoresOf(gold: readonly boolean[], predicted: readonly boolean[]): Scores {
  const { overall } = computeHallucinationMetrics(gold.map((g, i) => ({ gold: g, predicted: predicted[i] ? ('hallucinated' as const) : ('not-hallucinated' as const) })));
  return { n: overall.n, accuracy: finite(overall.accuracy), balancedAccuracy: finite(overall.balancedAccuracy), precision: finite(overall.precision), recall: finite(overall.recall), f1: finite(overall.f1) };
}

/** Sentence and response scores of per-sentence predictions (true = hallucinated; unverifiable counts as not). */
function rowOf(split: 'validation' | 'test', system: string, verifier: string, aggregation: string, responses: readonly ComposedResponse[], predict: (r: ComposedResponse) => boolean[] | undefined, unverifiable = 0): Row {
  const sentenceGold: boolean[] = [];
  const sentencePredicted: boolean[] = [];
  const responseGold: boolean[] = [];
  const responsePredicted: boolean[] = [];
  let failed = 0;
  for (const response of responses) {
    const predicted = predict(response);
    if (!predicted) {
      failed += 1;
      continue;
    }
    sentenceGold.push(...response.sentenceGold);
    sentencePredicted.push(...predicted);
    responseGold.push(response.responseGold);
    responsePredicted.push(predicted.some(Boolean));
  }
  return { split, system, verifier, aggregation, sentence: scoresOf(sentenceGold, sentencePredicted), response: scoresOf(responseGold, responsePredicted), unverifiableSentences: unverifiable, failed };
}

async function run(responses: readonly ComposedResponse[], generator: ClaimQueryGenerator, nli: NliModel, aggregation: NliAggregation, options: { topSnippets?: number; softThreshold?: number } = {}): Promise<DetectionResult[]> {
  return detectHallucinations({
    items: responses.map((r) => ({ id: r.id, question: r.question, answer: r.answer, language: 'en' as const })),
    generator,
    retriever,
    verifier: createNliVerifier({ nli, aggregation, ...options }),
    embedder: glove,
  });
}

function detectionRow(split: 'validation' | 'test', system: string, verifier: string, aggregation: string, responses: readonly ComposedResponse[], results: readonly DetectionResult[]): Row {
  const byId = new Map(results.map((result) => [result.id, result]));
  let unverifiable = 0;
  const row = rowOf(split, system, verifier, aggregation, responses, (response) => {
    const result = byId.get(response.id);
    if (result?.status !== 'ok' || result.sentences.length !== response.sentenceGold.length || result.sentences.some((s) => s.incomplete)) return undefined;
    unverifiable += result.sentences.filter((s) => s.label === 'unverifiable').length;
    return result.sentences.map((s) => s.label === 'hallucinated');
  });
  return { ...row, unverifiableSentences: unverifiable };
}

const rows: Row[] = [];
const log = (message: string) => process.stderr.write(`${message}\n`);
const describe = (split: typeof splits.validation) =>
  `${split.name}: ${split.responses.length} responses (${split.responses.filter((r) => r.responseGold).length} hallucinated), ${split.responses.reduce((n, r) => n + r.sentenceGold.length, 0)} sentences (${split.responses.reduce((n, r) => n + r.sentenceGold.filter(Boolean).length, 0)} hallucinated) from ${split.claimPool} claims, ${split.skipped} groups skipped`;
log(describe(splits.validation));
log(describe(splits.test));

function baselines(split: typeof splits.validation): void {
  rows.push(rowOf(split.name, 'all hallucinated', '–', '–', split.responses, (r) => r.sentenceGold.map(() => true)));
  rows.push(rowOf(split.name, 'all correct', '–', '–', split.responses, (r) => r.sentenceGold.map(() => false)));
}

// The shipped drafter (compound splitting off) and, for the comparison, the same with `splitCompound`.
const drafter = createDrafterGenerator();
const drafterWithSplit = createDrafterGenerator({ splitCompound: true });
const chosenVerifier = args.get('default-verifier') ?? 'feature';
const chosenAggregation = (args.get('default-aggregation') ?? DEFAULT_NLI_AGGREGATION) as NliAggregation;
baselines(splits.validation);
const nliModels = new Map<string, NliModel>();
for (const name of verifierNames) {
  const make = models[name];
  if (!make) throw new Error(`unknown verifier ${name} (lexical, feature, feature-use)`);
  const nli = memoised(make());
  nliModels.set(name, nli);
  const started = Date.now();
  // BM25-top-1: the verifier's label on the first snippet alone.
  rows.push(detectionRow('validation', 'BM25-top-1', name, 'top-1 snippet', splits.validation.responses, await run(splits.validation.responses, drafter, nli, 'decisive-majority', { topSnippets: 1 })));
  for (const aggregation of NLI_AGGREGATIONS) {
    for (const threshold of aggregation === 'soft' ? softThresholds : [undefined]) {
      const results = await run(splits.validation.responses, drafter, nli, aggregation, threshold === undefined ? {} : { softThreshold: threshold });
      rows.push(detectionRow('validation', 'drafter', name, threshold === undefined ? aggregation : `soft@${threshold}`, splits.validation.responses, results));
      // The drafter with compound splitting / answer-subject decontextualisation, for the default verifier.
      if (name !== chosenVerifier) continue;
      const split = await run(splits.validation.responses, drafterWithSplit, nli, aggregation, threshold === undefined ? {} : { softThreshold: threshold });
      rows.push(detectionRow('validation', 'drafter + splitCompound', name, threshold === undefined ? aggregation : `soft@${threshold}`, splits.validation.responses, split));
    }
  }
  log(`  ${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (!args.has('no-test')) {
  baselines(splits.test);
  const nli = nliModels.get(chosenVerifier) ?? memoised(models[chosenVerifier]!());
  rows.push(detectionRow('test', 'drafter', chosenVerifier, chosenAggregation, splits.test.responses, await run(splits.test.responses, drafter, nli, chosenAggregation)));
}

const cell = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));
const header = '| split | system | verifier | aggregation | sent Acc | sent BAcc | sent P | sent R | sent F1 | sent unv. | resp Acc | resp BAcc | resp F1 | failed |';
const table = [header, `|${'---|'.repeat(14)}`]
  .concat(
    rows
      .map((r) =>
        [
          r.split,
          r.system,
          r.verifier,
          r.aggregation,
          cell(r.sentence.accuracy),
          cell(r.sentence.balancedAccuracy),
          cell(r.sentence.precision),
          cell(r.sentence.recall),
          cell(r.sentence.f1),
          String(r.unverifiableSentences),
          cell(r.response.accuracy),
          cell(r.response.balancedAccuracy),
          cell(r.response.f1),
          String(r.failed),
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
  )
  .join('\n');
const heading = [
  '# FEVER-lite hallucination study (issue 20)',
  '',
  `Command: \`pnpm --filter hallucination-check fever-study${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`.`,
  `${describe(splits.validation)} (seed ${VALIDATION_SEED}); ${describe(splits.test)} (seed ${TEST_SEED}).`,
  `Corpus: ${splits.corpus.length} pooled FEVER-lite evidence sentences, BM25 top-10. FEVER-lite claims in the feature model's training pairs: ${splits.trainingClaims}; in its held-out pairs: ${splits.heldOutClaims}.`,
  'Unverifiable counts as not hallucinated. BAcc = balanced accuracy (mean recall of both classes); P/R/F1 of the hallucinated class.',
  '',
].join('\n');
console.log(`${heading}\n${table}`);
const resultsDirectory = new URL('../results/', import.meta.url);
mkdirSync(resultsDirectory, { recursive: true });
writeFileSync(new URL('fever-study.md', resultsDirectory), `${heading}\n${table}\n`);
writeFileSync(new URL('fever-study.json', resultsDirectory), `${JSON.stringify({ validationSeed: VALIDATION_SEED, testSeed: TEST_SEED, corpus: splits.corpus.length, rows }, null, 2)}\n`);
if (rows.some((r) => r.failed > 0)) process.exitCode = 1;
