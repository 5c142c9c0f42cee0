import type { Embedder } from '@factkit/core';
import { assertNonNegativeInteger, cosineSimilarity, createSeededRandom, embedInBatches, InvalidArgumentError, l2Norm } from '@factkit/core';

/** A hand-written in-context example for claim synthesis (question, answer, claims). */
export interface ClaimExample {
  readonly question: string;
  readonly answer: string;
  readonly claims: readonly string[];
}

/** A hand-written in-context example for query synthesis. */
export interface QueryExample {
  readonly claim: string;
  readonly query: string;
}

export interface SelectExamplesOptions {
  readonly pool: readonly ClaimExample[];
  readonly embedder: Embedder;
  /** Examples by semantic similarity of question+answer. @default 3 */
  readonly semanticCount?: number;
  /** Examples by closest answer length (characters). @default 3 */
  readonly lengthCount?: number;
  /** Examples finally sampled from the union. @default 3 */
  readonly sampleCount?: number;
  /** @default 0 */
  readonly seed?: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * The paper's example selection for claim synthesis (§3.2.2): for each QA pair, the top-3 pool examples by semantic
 * similarity (cosine of embeddings of question + answer) and the top-3 by closest answer length; from that pool of up
 * to six, three sampled at random (seeded, per target index). Returns pool indexes per target, in sampled order.
 * @throws InvalidArgumentError for an empty pool or bad counts.
 */
export async function selectClaimExamples(targets: readonly { question: string; answer: string }[], options: SelectExamplesOptions): Promise<number[][]> {
  const { pool, embedder, semanticCount = 3, lengthCount = 3, sampleCount = 3, seed = 0, abortSignal } = options;
  const where = 'selectClaimExamples';
  if (!Array.isArray(pool) || pool.length === 0) throw new InvalidArgumentError({ where, argument: 'pool', message: 'must be a non-empty array of examples' });
  for (const [argument, value] of [
    ['semanticCount', semanticCount],
    ['lengthCount', lengthCount],
    ['sampleCount', sampleCount],
  ] as const) {
    assertNonNegativeInteger(argument, value, where);
  }
  if (targets.length === 0) return [];
  const text = (item: { question: string; answer: string }): string => `${item.question}\n${item.answer}`;
  const vectors = await embedInBatches(embedder, [...pool.map(text), ...targets.map(text)], { kind: 'passage', ...(abortSignal ? { abortSignal } : {}) });
  return targets.map((target, targetIndex) => {
    const vector = vectors[pool.length + targetIndex]!;
    const bySimilarity = pool
      .map((_, index) => {
        // A zero vector (e.g. all words out of an English-only embedder's vocabulary) has no direction: rank it last.
        const zero = l2Norm(vectors[index]!) === 0 || l2Norm(vector) === 0;
        return { index, similarity: zero ? -Infinity : cosineSimilarity(vectors[index]!, vector) };
      })
      .sort((a, b) => b.similarity - a.similarity || a.index - b.index)
      .slice(0, semanticCount)
      .map((entry) => entry.index);
    const byLength = pool
      .map((example, index) => ({ index, distance: Math.abs(example.answer.length - target.answer.length) }))
      .sort((a, b) => a.distance - b.distance || a.index - b.index)
      .slice(0, lengthCount)
      .map((entry) => entry.index);
    const candidates = [...new Set([...bySimilarity, ...byLength])];
    const random = createSeededRandom(seed * 1_000_003 + targetIndex);
    for (let i = candidates.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
    }
    return candidates.slice(0, sampleCount);
  });
}

/** Three (or `count`) random query examples (§3.2.3), seeded. */
export function sampleQueryExamples(pool: readonly QueryExample[], options: { count?: number; seed?: number } = {}): QueryExample[] {
  const { count = 3, seed = 0 } = options;
  const order = pool.map((_, index) => index);
  const random = createSeededRandom(seed);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, count).map((index) => pool[index]!);
}

/** Renders claim examples for `{examples}` of Tables 13/14 in the prompt's own layout (claims one per line). */
export function formatClaimExamples(examples: readonly ClaimExample[], language: 'en' | 'zh' = 'en'): string {
  const [q, a, c, none] = language === 'zh' ? ['[问题]', '[回答]', '[陈述]', '无陈述'] : ['[Question]', '[Answer]', '[Claims]', 'No claims.'];
  return examples.map((example) => `${q}\n${example.question}\n${a}\n${example.answer}\n${c}\n${example.claims.length > 0 ? example.claims.join('\n') : none}`).join('\n\n');
}

/** Renders query examples for `{examples}` of Tables 15/16. */
export function formatQueryExamples(examples: readonly QueryExample[], language: 'en' | 'zh' = 'en'): string {
  const [c, q] = language === 'zh' ? ['[陈述]', '[查询]'] : ['[Claim]', '[Query]'];
  return examples.map((example) => `${c}\n${example.claim}\n${q}\n${example.query}`).join('\n\n');
}
