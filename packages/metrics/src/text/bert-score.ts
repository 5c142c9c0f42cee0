import { InvalidArgumentError, throwIfAborted } from '@factkit/core';

/** Tokens of a text and one embedding per token (e.g. a BERT layer's hidden states). */
export interface TokenEmbeddings {
  readonly tokens: readonly string[];
  readonly embeddings: readonly ArrayLike<number>[];
}

/** Turns a text into token embeddings; BERTScore works with any such function (BERT, GloVe, hashed vectors). */
export type TokenEmbeddingFunction = (text: string) => TokenEmbeddings | Promise<TokenEmbeddings>;

/** idf weights as bert-score computes them: log((M+1)/(df+1)), unseen tokens log(M+1). */
export interface IdfWeights {
  readonly weights: ReadonlyMap<string, number>;
  readonly unseenWeight: number;
}

export interface BertScore {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

export interface BertScoreWeightOptions {
  /** Token weights; without them every token weighs 1. */
  idf?: IdfWeights;
  /** Tokens that get weight 0 (bert-score zeroes [CLS] and [SEP]). @default ['[CLS]', '[SEP]', '<s>', '</s>'] */
  specialTokens?: readonly string[];
  /** Rescale with a baseline: (score − b) / (1 − b), as bert-score's `rescale_with_baseline`. */
  baseline?: BertScore;
}

const DEFAULT_SPECIAL_TOKENS = ['[CLS]', '[SEP]', '<s>', '</s>'];

/**
 * idf weights from a reference corpus (bert-score `get_idf_dict`): document frequency over the token sets of the
 * M references, weight log((M+1)/(df+1)); tokens never seen weigh log(M+1).
 * @throws InvalidArgumentError for an empty corpus.
 */
export function computeIdfWeights(referenceTokens: readonly (readonly string[])[]): IdfWeights {
  if (!Array.isArray(referenceTokens) || referenceTokens.length === 0) throw new InvalidArgumentError({ where: 'computeIdfWeights', argument: 'referenceTokens', message: 'must be a non-empty array of token arrays' });
  const documentFrequency = new Map<string, number>();
  for (const tokens of referenceTokens) for (const token of new Set<string>(tokens)) documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
  const m = referenceTokens.length;
  const weights = new Map<string, number>();
  for (const [token, count] of documentFrequency) weights.set(token, Math.log((m + 1) / (count + 1)));
  return { weights, unseenWeight: Math.log(m + 1) };
}

function normalize(vectors: readonly ArrayLike<number>[], argument: string): Float64Array[] {
  return vectors.map((vector, index) => {
    // Scale by the largest magnitude first, so tiny (squares underflow) or huge (squares overflow) vectors still get
    // an exact unit norm.
    let largest = 0;
    for (let k = 0; k < vector.length; k++) {
      const value = vector[k]!;
      if (!Number.isFinite(value)) throw new InvalidArgumentError({ where: 'computeBertScoreFromEmbeddings', argument, message: `embedding ${index} has a non-finite value` });
      largest = Math.max(largest, Math.abs(value));
    }
    const out = new Float64Array(vector.length);
    if (largest === 0) return out;
    let norm = 0;
    for (let k = 0; k < vector.length; k++) {
      out[k] = vector[k]! / largest;
      norm += out[k]! * out[k]!;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let k = 0; k < vector.length; k++) out[k] = out[k]! * scale;
    return out;
  });
}

function check(side: TokenEmbeddings, argument: string): void {
  if (!side || !Array.isArray(side.tokens) || !Array.isArray(side.embeddings) || side.tokens.length !== side.embeddings.length) {
    throw new InvalidArgumentError({ where: 'computeBertScoreFromEmbeddings', argument, message: 'must have as many embeddings as tokens' });
  }
  const dimensions = side.embeddings[0]?.length;
  if (side.embeddings.some((vector) => vector.length !== dimensions)) throw new InvalidArgumentError({ where: 'computeBertScoreFromEmbeddings', argument, message: 'embeddings must share one dimension' });
}

/**
 * BERTScore of one candidate against one reference from token embeddings: cosine similarities, greedy matching
 * (each token takes its most similar token on the other side), optional idf weighting, F1 = 2PR/(P+R) (0 if undefined).
 * @throws InvalidArgumentError for mismatched tokens/embeddings or non-finite values.
 */
export function computeBertScoreFromEmbeddings(candidate: TokenEmbeddings, reference: TokenEmbeddings, options: BertScoreWeightOptions = {}): BertScore {
  const { idf, specialTokens = DEFAULT_SPECIAL_TOKENS, baseline } = options;
  check(candidate, 'candidate');
  check(reference, 'reference');
  const candidateVectors = normalize(candidate.embeddings, 'candidate');
  const referenceVectors = normalize(reference.embeddings, 'reference');
  if (candidateVectors.length > 0 && referenceVectors.length > 0 && candidateVectors[0]!.length !== referenceVectors[0]!.length) {
    throw new InvalidArgumentError({ where: 'computeBertScoreFromEmbeddings', argument: 'reference', message: 'embeddings must have the dimension of the candidate embeddings' });
  }
  const special = new Set(specialTokens);
  const weight = (token: string) => (special.has(token) ? 0 : idf ? (idf.weights.get(token) ?? idf.unseenWeight) : 1);
  const bestForCandidate = new Float64Array(candidateVectors.length).fill(Number.NEGATIVE_INFINITY);
  const bestForReference = new Float64Array(referenceVectors.length).fill(Number.NEGATIVE_INFINITY);
  referenceVectors.forEach((referenceVector, i) => {
    candidateVectors.forEach((candidateVector, j) => {
      let similarity = 0;
      for (let k = 0; k < referenceVector.length; k++) similarity += referenceVector[k]! * candidateVector[k]!;
      if (similarity > bestForReference[i]!) bestForReference[i] = similarity;
      if (similarity > bestForCandidate[j]!) bestForCandidate[j] = similarity;
    });
  });
  const weighted = (tokens: readonly string[], best: Float64Array) => {
    let total = 0;
    let sum = 0;
    tokens.forEach((token, index) => {
      const w = weight(token);
      total += w;
      if (w !== 0 && Number.isFinite(best[index]!)) sum += w * best[index]!;
    });
    return total > 0 ? sum / total : 0;
  };
  let precision = weighted(candidate.tokens, bestForCandidate);
  let recall = weighted(reference.tokens, bestForReference);
  let f1 = precision + recall !== 0 ? (2 * precision * recall) / (precision + recall) : 0;
  if (baseline) {
    precision = (precision - baseline.precision) / (1 - baseline.precision);
    recall = (recall - baseline.recall) / (1 - baseline.recall);
    f1 = (f1 - baseline.f1) / (1 - baseline.f1);
  }
  return { precision, recall, f1 };
}

export interface BertScoreOptions {
  /** Tokens that get weight 0 (bert-score zeroes [CLS] and [SEP]). @default ['[CLS]', '[SEP]', '<s>', '</s>'] */
  specialTokens?: readonly string[];
  /** Rescale with a baseline: (score − b) / (1 − b), as bert-score's `rescale_with_baseline`. */
  baseline?: BertScore;
  /** Token embedding function (required). */
  embedTokens: TokenEmbeddingFunction;
  /** Weight tokens by idf computed from `references` (bert-score `idf=True`), or pass weights. @default false */
  idf?: boolean | IdfWeights;
  abortSignal?: AbortSignal;
}

export interface BertScoreResult {
  readonly perPair: readonly BertScore[];
  /** Means over pairs. */
  readonly mean: BertScore;
}

/**
 * BERTScore for candidate/reference pairs with a pluggable token-embedding function.
 * @throws InvalidArgumentError for mismatched lengths or a missing `embedTokens`; rethrows the abort reason.
 */
export async function computeBertScore(candidates: readonly string[], references: readonly string[], options: BertScoreOptions): Promise<BertScoreResult> {
  const { embedTokens, idf = false, abortSignal, ...weightOptions } = options;
  const where = 'computeBertScore';
  if (typeof embedTokens !== 'function') throw new InvalidArgumentError({ where, argument: 'embedTokens', message: 'must be a function text → { tokens, embeddings }' });
  if (!Array.isArray(candidates) || candidates.length === 0) throw new InvalidArgumentError({ where, argument: 'candidates', message: 'must be a non-empty array of strings' });
  if (!Array.isArray(references) || references.length !== candidates.length) throw new InvalidArgumentError({ where, argument: 'references', message: `must be an array with one reference per candidate (${candidates.length})` });
  const embedded: { candidate: TokenEmbeddings; reference: TokenEmbeddings }[] = [];
  for (let index = 0; index < candidates.length; index++) {
    throwIfAborted(abortSignal);
    embedded.push({ candidate: await embedTokens(candidates[index]!), reference: await embedTokens(references[index]!) });
  }
  throwIfAborted(abortSignal);
  const weights = idf === true ? computeIdfWeights(embedded.map(({ reference }) => reference.tokens)) : idf === false ? undefined : idf;
  const perPair = embedded.map(({ candidate, reference }) => computeBertScoreFromEmbeddings(candidate, reference, { ...weightOptions, ...(weights ? { idf: weights } : {}) }));
  const mean = (key: keyof BertScore) => perPair.reduce((sum, score) => sum + score[key], 0) / perPair.length;
  return { perPair, mean: { precision: mean('precision'), recall: mean('recall'), f1: mean('f1') } };
}

export interface BertScoreMatrixOptions extends Omit<BertScoreOptions, 'idf'> {
  /** idf weights (e.g. `computeIdfWeights` over the reference corpus); none by default. */
  idf?: IdfWeights;
}

/**
 * BERTScore F1 of every prediction against every reference (rows = predictions), each text embedded once; feed it to
 * `computeHungarianMatchScore` for the AVeriTeC-style BERTScore evidence metric.
 * @throws InvalidArgumentError for non-array inputs or a missing `embedTokens`; rethrows the abort reason.
 */
export async function computeBertScoreMatrix(predictions: readonly string[], references: readonly string[], options: BertScoreMatrixOptions): Promise<number[][]> {
  const { embedTokens, idf, abortSignal, ...weightOptions } = options;
  const where = 'computeBertScoreMatrix';
  if (typeof embedTokens !== 'function') throw new InvalidArgumentError({ where, argument: 'embedTokens', message: 'must be a function text → { tokens, embeddings }' });
  if (!Array.isArray(predictions)) throw new InvalidArgumentError({ where, argument: 'predictions', message: 'must be an array of strings' });
  if (!Array.isArray(references)) throw new InvalidArgumentError({ where, argument: 'references', message: 'must be an array of strings' });
  const embed = async (texts: readonly string[]) => {
    const out: TokenEmbeddings[] = [];
    for (const text of texts) {
      throwIfAborted(abortSignal);
      out.push(await embedTokens(text));
    }
    return out;
  };
  const predicted = await embed(predictions);
  const referenced = await embed(references);
  throwIfAborted(abortSignal);
  return predicted.map((prediction) => referenced.map((reference) => computeBertScoreFromEmbeddings(prediction, reference, { ...weightOptions, ...(idf ? { idf } : {}) }).f1));
}
