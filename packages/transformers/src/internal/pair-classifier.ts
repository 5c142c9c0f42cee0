import { ProviderCallError, throwIfAborted } from '@factkit/core';
import { type LocalModelDirectory, lazyLocalPipeline } from './local-model.js';

interface TokenizerOutput {
  input_ids: { dims: number[] };
  [name: string]: unknown;
}
export interface PairTokenizer {
  (text: string | string[], options: Record<string, unknown>): TokenizerOutput;
  model_max_length?: number;
}
interface ClassifierModel {
  (inputs: TokenizerOutput): Promise<{ logits: { dims: number[]; data: ArrayLike<number> } }>;
  sessions?: Record<string, { inputNames?: string[] }>;
}

/** A local sequence-classification model that scores text pairs (NLI premise/hypothesis, cross-encoder query/passage). */
export interface PairClassifier {
  readonly tokenizer: PairTokenizer;
  readonly model: ClassifierModel;
  readonly maxInputLength: number;
  readonly wantsTokenTypeIds: boolean;
}

/** Loads the text-classification pipeline of `directory` lazily (see `lazyLocalPipeline`) as a {@link PairClassifier}. */
export function lazyPairClassifier(where: string, directory: LocalModelDirectory, maxInputLength: number | undefined): () => Promise<PairClassifier> {
  return lazyLocalPipeline(where, directory, 'text-classification', (pipeline): PairClassifier => {
    const classifier = pipeline as { tokenizer: PairTokenizer; model: ClassifierModel };
    const modelMax = classifier.tokenizer.model_max_length;
    const wantsTokenTypeIds = classifier.model.sessions?.['model']?.inputNames?.includes('token_type_ids') ?? false;
    return { tokenizer: classifier.tokenizer, model: classifier.model, maxInputLength: maxInputLength ?? Math.min(512, typeof modelMax === 'number' && modelMax > 0 ? modelMax : 512), wantsTokenTypeIds };
  });
}

/**
 * The logits of every (first, second) pair, encoded as a text pair (`[CLS] first [SEP] second [SEP]`, truncated to the
 * model's input length), in batches of `maxBatchSize`; one row of `classes` numbers per pair. The text-classification
 * pipeline's own call takes single texts, so pairs go through its tokenizer and model.
 * @throws ProviderCallError when the model returns logits of another shape; rethrows an abort between batches.
 */
export async function classifyPairLogits(
  loaded: PairClassifier,
  pairs: ReadonlyArray<readonly [string, string]>,
  options: { readonly maxBatchSize: number; readonly classes: number; readonly provider: string; readonly abortSignal?: AbortSignal | undefined },
): Promise<number[][]> {
  const { maxBatchSize, classes, provider, abortSignal } = options;
  const rows: number[][] = [];
  for (let start = 0; start < pairs.length; start += maxBatchSize) {
    throwIfAborted(abortSignal);
    const batch = pairs.slice(start, start + maxBatchSize);
    const inputs = loaded.tokenizer(
      batch.map((pair) => pair[0]),
      { text_pair: batch.map((pair) => pair[1]), padding: true, truncation: true, max_length: loaded.maxInputLength, return_token_type_ids: loaded.wantsTokenTypeIds },
    );
    const { logits } = await loaded.model(inputs);
    const [count, width] = logits.dims as [number, number];
    if (count !== batch.length || width !== classes) {
      throw new ProviderCallError({ provider, message: `model returned logits of shape [${logits.dims.join(', ')}], expected [${batch.length}, ${classes}]`, isRetryable: false });
    }
    for (let row = 0; row < count; row += 1) rows.push(Array.from({ length: width }, (_, column) => logits.data[row * width + column] as number));
  }
  return rows;
}

/** Softmax of one row of logits (max-shifted). */
export function softmax(row: readonly number[]): number[] {
  const max = Math.max(...row);
  const exps = row.map((value) => Math.exp(value - max));
  const sum = exps.reduce((total, value) => total + value, 0);
  return exps.map((value) => value / sum);
}
