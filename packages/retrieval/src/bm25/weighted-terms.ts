import type { Query, WeightedTerm } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';

/**
 * Reads and checks `query.weightedTerms` (the typed channel RM3 writes); undefined when absent.
 * @throws InvalidArgumentError when present but not an array of `{ term: string, weight: finite ≥ 0 }`.
 */
export function readWeightedTerms(query: Query, where: string): WeightedTerm[] | undefined {
  const raw: unknown = query.weightedTerms;
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw new InvalidArgumentError({ where, argument: 'query.weightedTerms', message: 'must be an array of { term, weight }' });
  return raw.map((entry: unknown, index) => {
    const candidate = entry as Partial<WeightedTerm> | null;
    if (typeof candidate?.term !== 'string' || typeof candidate.weight !== 'number' || !Number.isFinite(candidate.weight) || candidate.weight < 0) {
      throw new InvalidArgumentError({ where, argument: `query.weightedTerms[${index}]`, message: 'must be { term: string, weight: finite number ≥ 0 }' });
    }
    return { term: candidate.term, weight: candidate.weight };
  });
}
