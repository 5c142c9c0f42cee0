import { basename } from 'node:path';
import { assertPositiveInteger, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { NliLabel, NliModel, NliPrediction, NliRequest, NliResult } from '@factkit/core';
import { inspectModelDirectory } from './internal/local-model.js';
import { classifyPairLogits, lazyPairClassifier, type PairClassifier, softmax } from './internal/pair-classifier.js';
import type { LocalModelOptions } from './local-model-options.js';
import { resolveNliLabels } from './internal/nli-labels.js';
import { splitPremise } from './internal/split-premise.js';

export interface TransformersNliModelOptions extends LocalModelOptions {
  /**
   * Model label (as in config.json `id2label`) → NLI label. Needed when labels are not recognisable names
   * (`LABEL_0`) or for 2-way models (`not_entailment`). @default guessed from names starting with entail, neutral or contradict
   */
  readonly labelMap?: Readonly<Record<string, NliLabel>>;
  /** Pairs (or premise chunks) per forward pass. @default 8 */
  readonly maxBatchSize?: number;
  /** Longest model input in tokens (premise + hypothesis + special tokens). @default tokenizer model_max_length, at most 512 */
  readonly maxInputLength?: number;
  /** Split premises longer than `maxInputLength` into sentence chunks instead of truncating them. @default true */
  readonly splitLongPremises?: boolean;
  /** @default `transformers-nli:<directory name>` */
  readonly id?: string;
}

export interface TransformersNliModel extends NliModel {
  readonly maxBatchSize: number;
}

type Scores = Record<NliLabel, number>;
const WHERE = 'createTransformersNliModel';

function argmax(scores: Scores): NliLabel {
  let best: NliLabel = 'neutral';
  for (const label of ['entailment', 'neutral', 'contradiction'] as const) if (scores[label] > scores[best]) best = label;
  return best;
}

/**
 * Chunk verdicts → one verdict: entailment if any chunk entails the hypothesis, else contradiction if any chunk
 * contradicts it, else neutral. The scores are those of the deciding chunk (the one most confident in that label).
 */
function aggregate(chunks: readonly Scores[]): { label: NliLabel; scores: Scores } {
  for (const label of ['entailment', 'contradiction', 'neutral'] as const) {
    const voting = chunks.filter((scores) => argmax(scores) === label);
    if (voting.length > 0) {
      const best = voting.reduce((a, b) => (b[label] > a[label] ? b : a));
      return { label, scores: best };
    }
  }
  return { label: 'neutral', scores: chunks[0] as Scores };
}

/**
 * Creates an NliModel over a local transformers.js sequence-classification model (text-classification pipeline;
 * a directory on disk, never the Hub). Premise and hypothesis are encoded as a text pair. Premises too long for
 * the model are split into sentence chunks, each judged against the hypothesis (see `aggregate` rule in the docs).
 * @throws InvalidArgumentError when `modelPath` is not a model directory, or its labels cannot be mapped to NLI labels.
 * @example
 * const nli = createTransformersNliModel({ modelPath: './models/nli-deberta-v3-xsmall' });
 * const { results } = await nli.classify({ pairs: [{ premise: 'A man plays guitar.', hypothesis: 'A man makes music.' }] });
 */
export function createTransformersNliModel(options: TransformersNliModelOptions): TransformersNliModel {
  const { labelMap, maxBatchSize = 8, splitLongPremises = true } = options;
  const directory = inspectModelDirectory(WHERE, options, ['model']);
  assertPositiveInteger('maxBatchSize', maxBatchSize, WHERE);
  if (options.maxInputLength !== undefined && (!Number.isInteger(options.maxInputLength) || options.maxInputLength < 4)) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'maxInputLength', message: `must be an integer >= 4 (got ${String(options.maxInputLength)})` });
  }
  const id2label = directory.config['id2label'];
  if (typeof id2label !== 'object' || id2label === null) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'modelPath', message: `has no id2label in config.json (${directory.path}); is it a sequence-classification model?` });
  }
  const { byIndex, unmapped } = resolveNliLabels(id2label as Record<string, unknown>, labelMap);
  if (unmapped.length > 0) {
    throw new InvalidArgumentError({
      where: WHERE,
      argument: 'labelMap',
      message: `must map the model labels ${unmapped.map((label) => JSON.stringify(label)).join(', ')} to entailment/neutral/contradiction`,
    });
  }
  const id = options.id ?? `transformers-nli:${basename(directory.path)}`;
  const load = lazyPairClassifier(WHERE, directory, options.maxInputLength);

  async function scoreSegments(loaded: PairClassifier, segments: ReadonlyArray<{ premise: string; hypothesis: string }>, abortSignal: AbortSignal | undefined): Promise<Scores[]> {
    const rows = await classifyPairLogits(
      loaded,
      segments.map((segment) => [segment.premise, segment.hypothesis] as const),
      { maxBatchSize, classes: byIndex.length, provider: id, abortSignal },
    );
    return rows.map((row) => {
      const scores: Scores = { entailment: 0, neutral: 0, contradiction: 0 };
      softmax(row).forEach((probability, column) => {
        scores[byIndex[column] as NliLabel] += probability;
      });
      return scores;
    });
  }

  return {
    id,
    maxBatchSize,
    ...(options.maxInputLength !== undefined ? { maxInputLength: options.maxInputLength } : {}),
    async classify(request: NliRequest): Promise<NliResult> {
      const { pairs, abortSignal } = request;
      if (!Array.isArray(pairs)) throw new InvalidArgumentError({ where: 'transformers classify', argument: 'pairs', message: 'must be an array of { premise, hypothesis }' });
      throwIfAborted(abortSignal);
      const results: NliPrediction[] = new Array(pairs.length);
      const valid: number[] = [];
      pairs.forEach((pair, index) => {
        const candidate = pair as { premise?: unknown; hypothesis?: unknown } | null;
        if (typeof candidate?.premise !== 'string' || typeof candidate.hypothesis !== 'string') {
          results[index] = { label: null, problem: 'pair must have string "premise" and "hypothesis"' };
        } else {
          valid.push(index);
        }
      });
      if (valid.length === 0) return { results };
      const loaded = await load();
      // Each pair becomes one segment, or several when its premise is split.
      const segments: Array<{ premise: string; hypothesis: string; pair: number }> = [];
      for (const index of valid) {
        const { premise, hypothesis } = pairs[index] as { premise: string; hypothesis: string };
        const countTokens = (chunk: string) => (loaded.tokenizer(chunk, { text_pair: hypothesis }).input_ids.dims.at(-1) as number) ?? 0;
        const chunks = splitLongPremises ? splitPremise(premise, loaded.maxInputLength, countTokens) : [premise];
        for (const chunk of chunks) segments.push({ premise: chunk, hypothesis, pair: index });
      }
      const scores = await scoreSegments(loaded, segments, abortSignal);
      const byPair = new Map<number, Scores[]>();
      segments.forEach((segment, position) => {
        const list = byPair.get(segment.pair) ?? [];
        list.push(scores[position] as Scores);
        byPair.set(segment.pair, list);
      });
      for (const index of valid) {
        const { label, scores: decided } = aggregate(byPair.get(index) ?? []);
        results[index] = { label, scores: decided };
      }
      throwIfAborted(abortSignal);
      return { results };
    },
  };
}
