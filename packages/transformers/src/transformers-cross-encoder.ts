import { basename } from 'node:path';
import type { Evidence, ItemProblem, Reranker, RerankRequest } from '@factkit/core';
import { assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import { inspectModelDirectory } from './internal/local-model.js';
import { classifyPairLogits, lazyPairClassifier, softmax } from './internal/pair-classifier.js';
import type { LocalModelOptions, TransformersProblemCode } from './local-model-options.js';

export interface TransformersCrossEncoderOptions extends LocalModelOptions {
  /** (query, passage) pairs per forward pass. @default 16 */
  readonly maxBatchSize?: number;
  /** Longest model input in tokens (query + passage + special tokens); longer pairs are truncated. @default tokenizer model_max_length, at most 512 */
  readonly maxInputLength?: number;
  /**
   * For a model with two or more labels, the index (in config.json `id2label`) of the "relevant" label; the score is its
   * softmax probability. A one-label model's score is its raw logit. @default the last label
   */
  readonly relevantLabel?: number;
  /** @default `cross-encoder:<directory name>` */
  readonly id?: string;
}

/** The `Reranker` of `createTransformersCrossEncoder`: its problems carry `TransformersProblemCode`s. */
export interface TransformersCrossEncoder extends Reranker<TransformersProblemCode> {
  readonly maxBatchSize: number;
}

const WHERE = 'createTransformersCrossEncoder';

/** The passage text a cross-encoder reads: `title text` when the evidence has a title (as BEIR's reranking does), else the text. */
function passageOf(evidence: Evidence): string {
  const title = evidence.origin?.title;
  return title ? `${title} ${evidence.text}` : evidence.text;
}

/**
 * A cross-encoder reranker (core `Reranker`) over a local transformers.js sequence-classification model, e.g. an
 * MS MARCO MiniLM cross-encoder exported to ONNX: each (query, passage) pair is encoded together and scored; the
 * candidates are sorted by that score (ties keep their incoming order). A one-logit model's score is the logit (what
 * sentence-transformers ranks by); a multi-label model's is the probability of `relevantLabel`. The model is read
 * from a directory on disk, never downloaded. The LLM-free counterpart of the RankGPT reranker.
 * @throws InvalidArgumentError when `modelPath` is not a model directory or has no labels, or an option is out of range.
 * @example withReranker(bm25, createTransformersCrossEncoder({ modelPath: './models/ms-marco-MiniLM-L-6-v2' }), { candidates: 100 })
 */
export function createTransformersCrossEncoder(options: TransformersCrossEncoderOptions): TransformersCrossEncoder {
  const { maxBatchSize = 16 } = options ?? ({} as TransformersCrossEncoderOptions);
  const directory = inspectModelDirectory(WHERE, options, ['model']);
  assertPositiveInteger('maxBatchSize', maxBatchSize, WHERE);
  if (options.maxInputLength !== undefined && (!Number.isInteger(options.maxInputLength) || options.maxInputLength < 4)) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'maxInputLength', message: `must be an integer >= 4 (got ${String(options.maxInputLength)})` });
  }
  const id2label = directory.config['id2label'];
  const classes = typeof id2label === 'object' && id2label !== null ? Object.keys(id2label).length : typeof directory.config['num_labels'] === 'number' ? (directory.config['num_labels'] as number) : 0;
  if (classes < 1) throw new InvalidArgumentError({ where: WHERE, argument: 'modelPath', message: `has no id2label in config.json (${directory.path}); is it a sequence-classification model?` });
  const relevantLabel = options.relevantLabel ?? classes - 1;
  assertNonNegativeInteger('relevantLabel', relevantLabel, WHERE);
  if (relevantLabel >= classes) throw new InvalidArgumentError({ where: WHERE, argument: 'relevantLabel', message: `must be < ${classes}, the model's label count (got ${relevantLabel})` });
  const id = options.id ?? `cross-encoder:${basename(directory.path)}`;
  const load = lazyPairClassifier(WHERE, directory, options.maxInputLength);

  return {
    id,
    maxBatchSize,
    async rerank(request: RerankRequest) {
      const { query, evidence: candidates, abortSignal } = request;
      throwIfAborted(abortSignal);
      if (!Array.isArray(candidates)) throw new InvalidArgumentError({ where: `${id}.rerank`, argument: 'evidence', message: 'must be an array of Evidence' });
      const topK = request.topK ?? candidates.length;
      if (topK === 0 || candidates.length === 0) return { evidence: [] };
      if (typeof query?.text !== 'string' || query.text.trim() === '') {
        const problem: ItemProblem<TransformersProblemCode> = { code: 'empty-query', message: 'the query has no text to score passages against' };
        return { evidence: [], problems: [problem] };
      }
      const loaded = await load();
      const rows = await classifyPairLogits(
        loaded,
        candidates.map((candidate) => [query.text, passageOf(candidate)] as const),
        { maxBatchSize, classes, provider: id, abortSignal },
      );
      throwIfAborted(abortSignal);
      const scored = candidates.map((candidate, position) => {
        const row = rows[position] as number[];
        return { candidate, position, score: classes === 1 ? (row[0] as number) : (softmax(row)[relevantLabel] as number) };
      });
      scored.sort((a, b) => b.score - a.score || a.position - b.position);
      return { evidence: scored.slice(0, topK).map(({ candidate, score }, index) => ({ ...candidate, score, rank: index + 1 })) };
    },
  };
}
