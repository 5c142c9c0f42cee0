import type { Embedder } from '@factkit/core';
import { InvalidArgumentError, cosineSimilarity, embedInBatches, l2Norm } from '@factkit/core';

export interface AlignClaimsOptions {
  readonly sentences: readonly string[];
  readonly claims: readonly string[];
  /** Any embedder (the paper: paraphrase-multilingual-mpnet-base-v2). */
  readonly embedder: Embedder;
  /** Smallest cosine similarity for an alignment (paper θ = 0.5). @default 0.5 */
  readonly threshold?: number;
  readonly abortSignal?: AbortSignal;
}

export interface ClaimAlignment {
  readonly claimIndex: number;
  /** argmax_s sim(s, c) when that similarity is ≥ threshold, else undefined. */
  readonly sentenceIndex?: number;
  /** Highest similarity over the sentences (NaN when there are no sentences). */
  readonly similarity: number;
  /** Sentence of highest similarity, aligned or not. */
  readonly bestSentenceIndex?: number;
}

/**
 * Aligns each claim to the response sentence of highest cosine similarity if it is ≥ θ (paper §4.3:
 * C(s_i) = { c_j | s_i = argmax_k sim(s_k, c_j) ∧ sim(s_i, c_j) ≥ θ }). Ties go to the earlier sentence.
 * @throws InvalidArgumentError when threshold is not a number in [-1, 1].
 */
export async function alignClaimsToSentences(options: AlignClaimsOptions): Promise<ClaimAlignment[]> {
  const { sentences, claims, embedder, threshold = 0.5, abortSignal } = options;
  if (!(typeof threshold === 'number' && threshold >= -1 && threshold <= 1)) {
    throw new InvalidArgumentError({ where: 'alignClaimsToSentences', argument: 'threshold', message: `must be a number in [-1, 1] (got ${String(threshold)})` });
  }
  if (claims.length === 0) return [];
  if (sentences.length === 0) return claims.map((_, claimIndex) => ({ claimIndex, similarity: Number.NaN }));
  const vectors = await embedInBatches(embedder, [...sentences, ...claims], { kind: 'passage', abortSignal });
  const sentenceVectors = vectors.slice(0, sentences.length);
  return claims.map((_, claimIndex) => {
    const claimVector = vectors[sentences.length + claimIndex]!;
    let best = -Infinity;
    let bestIndex = -1;
    // Zero vectors (e.g. every word unknown to the embedder) have no direction: they never align.
    if (l2Norm(claimVector) === 0) return { claimIndex, similarity: Number.NaN };
    sentenceVectors.forEach((vector, index) => {
      if (l2Norm(vector) === 0) return;
      const similarity = cosineSimilarity(vector, claimVector);
      if (similarity > best) {
        best = similarity;
        bestIndex = index;
      }
    });
    if (bestIndex < 0) return { claimIndex, similarity: Number.NaN };
    return {
      claimIndex,
      similarity: best,
      bestSentenceIndex: bestIndex,
      ...(best >= threshold ? { sentenceIndex: bestIndex } : {}),
    };
  });
}
