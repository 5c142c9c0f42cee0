import type { DraftOptions } from '../drafter/draft-claims-and-queries.js';
import { draftClaimsAndQueries } from '../drafter/draft-claims-and-queries.js';
import type { ClaimQueryGenerator } from './generator.js';
import { generatedPair, itemIdOf } from './generator.js';

/**
 * The LLM-free drafter ({@link draftClaimsAndQueries}) as a generator: a classical baseline (sentence split,
 * pronoun replacement, RAKE keyphrase queries), never JointCQ.
 */
export function createDrafterGenerator(options: DraftOptions = {}): ClaimQueryGenerator {
  return {
    id: 'drafter-baseline(sentences+rake)',
    async generate({ items, abortSignal }) {
      abortSignal?.throwIfAborted();
      return items.map((item, index) => {
        const draft = draftClaimsAndQueries({ ...item, id: itemIdOf(item, index) }, options);
        return { status: 'ok' as const, pairs: draft.pairs, noClaims: draft.pairs.length === 0, problems: draft.problems };
      });
    },
  };
}

/** Baseline "verify the whole response as one claim": claim = query = the answer. */
export function createWholeResponseGenerator(): ClaimQueryGenerator {
  return {
    id: 'whole-response-baseline',
    async generate({ items, abortSignal }) {
      abortSignal?.throwIfAborted();
      return items.map((item, index) => {
        const answer = typeof item.answer === 'string' ? item.answer.trim() : '';
        return answer
          ? { status: 'ok' as const, pairs: [generatedPair(itemIdOf(item, index), 0, answer, answer)], noClaims: false, problems: [] }
          : { status: 'ok' as const, pairs: [], noClaims: true, problems: [{ code: 'empty-answer', message: 'the answer is empty' }] };
      });
    },
  };
}

/** The paper's "w/o q" ablation: keep another generator's claims and search with the claim itself as the query. */
export function withClaimsAsQueries(generator: ClaimQueryGenerator): ClaimQueryGenerator {
  return {
    id: `claims-as-queries(${generator.id})`,
    async generate(request) {
      const results = await generator.generate(request);
      return results.map((result) => ({ ...result, pairs: result.pairs.map((pair) => ({ ...pair, query: { text: pair.claim.text, claimId: pair.claim.id } })) }));
    },
  };
}
