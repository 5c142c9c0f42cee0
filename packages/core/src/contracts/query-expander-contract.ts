import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, type ExpandedQuery, type Query, type QueryExpander } from '../index.js';

type Factory<T> = () => T | Promise<T>;

export interface QueryExpanderContractOptions {
  /** Queries to expand; RM3/Rocchio need queries that match their index. @default three English claims */
  readonly queries?: readonly Query[];
  /** The same (query, sample) gives the same expanded text (true for RM3, Rocchio and expanders over a scripted model). @default true */
  readonly deterministic?: boolean;
}

const DEFAULT_QUERIES: readonly Query[] = [{ id: 'q1', text: 'Aspirin lowers fever.' }, { id: 'q2', text: 'The Eiffel Tower is in Berlin.', metadata: { source: 'contract' } }, { text: 'Vitamin C prevents colds.' }];

/** A deep copy frozen all the way down, so an expander that mutates its input throws. */
function deepFrozen<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (entry: unknown) => {
    if (entry === null || typeof entry !== 'object' || Object.isFrozen(entry)) return;
    Object.freeze(entry);
    for (const child of Object.values(entry as Record<string, unknown>)) freeze(child);
  };
  freeze(copy);
  return copy;
}

function expectWellFormed(expanded: ExpandedQuery, query: Query, expander: QueryExpander): void {
  expect(expanded.original).toEqual(query);
  if (query.id !== undefined) expect(expanded.id).toBe(query.id);
  expect(typeof expanded.text).toBe('string');
  expect(expanded.text.trim().length).toBeGreaterThan(0);
  expect(Array.isArray(expanded.generations)).toBe(true);
  for (const generation of expanded.generations) expect(typeof generation).toBe('string');
  if (expanded.vector !== undefined) {
    expect(expanded.vector).toBeInstanceOf(Float32Array);
    expect(expanded.vector.length).toBeGreaterThan(0);
    expect(expanded.vector.every(Number.isFinite)).toBe(true);
  }
  for (const subQuery of expanded.subQueries ?? []) expect(subQuery.trim().length).toBeGreaterThan(0);
  for (const { term, weight } of expanded.weightedTerms ?? []) {
    expect(term.length).toBeGreaterThan(0);
    expect(Number.isFinite(weight)).toBe(true);
  }
  for (const problem of expanded.problems ?? []) {
    expect(problem.code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(typeof problem.message).toBe('string');
  }
  if (expander.usesLanguageModel) {
    // LLM expanders record a full GenerationProvenance; classical ones (RM3, Rocchio) generate nothing and record none.
    const provenance = expanded.provenance as unknown as Record<string, unknown>;
    expect(typeof provenance).toBe('object');
    expect(typeof provenance['step']).toBe('string');
    expect(typeof provenance['modelId']).toBe('string');
    expect((provenance['prompts'] as unknown[]).length).toBeGreaterThan(0);
    for (const prompt of provenance['prompts'] as unknown[]) expect(typeof prompt).toBe('string');
    expect(typeof provenance['sampling']).toBe('object');
    expect(typeof provenance['cached']).toBe('boolean');
    const usage = provenance['usage'] as Record<string, number>;
    for (const value of [usage['inputTokens'], usage['outputTokens'], usage['totalTokens']]) expect(Number.isInteger(value) && (value as number) >= 0).toBe(true);
    for (const field of ['startedAt', 'finishedAt']) expect(Number.isNaN(Date.parse(provenance[field] as string))).toBe(false);
  }
}

/**
 * Checks any QueryExpander (HyDE, Query2doc, multi-query, RM3, Rocchio, mocks): a well-formed ExpandedQuery that keeps
 * the original query and its id, kebab-case problem codes, a full GenerationProvenance for LLM expanders, no mutation
 * of the input, determinism per (query, sample), independent concurrent expansions, a typed error (or nothing) for an
 * empty query, and the abort reason rethrown unchanged.
 */
export function describeQueryExpanderContract(name: string, factory: Factory<QueryExpander>, options: QueryExpanderContractOptions = {}): void {
  const { queries = DEFAULT_QUERIES, deterministic = true } = options;
  describe(`QueryExpander contract: ${name}`, () => {
    it('has a non-empty id and says whether it uses a language model', async () => {
      const expander = await factory();
      expect(typeof expander.id).toBe('string');
      expect(expander.id.length).toBeGreaterThan(0);
      expect(typeof expander.usesLanguageModel).toBe('boolean');
    });

    it('returns a well-formed ExpandedQuery that keeps the original query, without mutating it', async () => {
      const expander = await factory();
      for (const query of queries) {
        const frozen = deepFrozen(query);
        const expanded = await expander.expand({ query: frozen });
        expectWellFormed(expanded, query, expander);
      }
    });

    it.runIf(deterministic)('gives the same text for the same query and sample', async () => {
      const expander = await factory();
      const query = queries[0] as Query;
      const first = await expander.expand({ query, sample: 1 });
      const second = await expander.expand({ query, sample: 1 });
      expect(second.text).toBe(first.text);
      expect(second.generations).toEqual(first.generations);
    });

    it('expands several queries at once without mixing them up', async () => {
      const expander = await factory();
      const results = await Promise.all(queries.map((query, sample) => expander.expand({ query, sample })));
      results.forEach((expanded, index) => expect(expanded.original).toEqual(queries[index]));
    });

    it('rejects an empty query with InvalidArgumentError or expands it, never another error', async () => {
      const expander = await factory();
      try {
        const expanded = await expander.expand({ query: { text: '' } });
        expect(expanded.original).toEqual({ text: '' });
      } catch (error) {
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
      }
    });

    it('rejects with the abort reason, unchanged', async () => {
      const expander = await factory();
      const controller = new AbortController();
      const reason = new DOMException('contract-test-abort', 'AbortError');
      controller.abort(reason);
      await expect(expander.expand({ query: queries[0] as Query, abortSignal: controller.signal })).rejects.toBe(reason);
    });
  });
}
