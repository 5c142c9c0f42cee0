import { assertPositiveInteger, InvalidArgumentError, parseListItems, type Evidence, type ExpandedQuery, type ItemProblem, type LanguageModel, type Query, type QueryExpander, type Retriever } from '@factkit/core';
import type { ExpansionProblemCode } from './problem-codes.js';
import { buildExpandedQuery, generateForRequest, prepareGeneration, type ExpanderSamplingOptions, type GenerationSetup } from './internal/generate.js';
import { cleanGeneration } from './parse-generation.js';
import { MULTI_QUERY_PROMPT } from './prompts.js';

export interface ParsedSubQueries {
  readonly queries: string[];
  readonly problems: ItemProblem<ExpansionProblemCode>[];
}

/**
 * Reads sub-queries from a model's reply with core `parseListItems` (list markers such as `**1.**`, `(1)`, `1 -`,
 * `Q2:` and bullets, wrapping bold and quotes, and remarks such as "Here are 3 versions:" or "Hope this helps!"
 * removed), then drops duplicates (case-insensitive, the original query included). At most `count` are kept; extra or
 * missing ones are reported as problems. Pure and total: never throws.
 */
export function parseSubQueries(raw: unknown, options: { count?: number; original?: string } = {}): ParsedSubQueries {
  const { count = 3, original } = options;
  const problems: ItemProblem<ExpansionProblemCode>[] = [];
  if (typeof raw !== 'string') {
    return { queries: [], problems: [{ code: 'missing', message: 'the model returned no text' }] };
  }
  const seen = new Set<string>();
  if (typeof original === 'string') seen.add(original.trim().toLowerCase());
  const found: string[] = [];
  for (const text of parseListItems(cleanGeneration(raw)).items) {
    const key = text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(text);
  }
  if (found.length > count) {
    problems.push({ code: 'extra-queries', message: `the model gave ${found.length} sub-queries; kept the first ${count}`, raw });
  }
  if (found.length < count) {
    problems.push({ code: found.length === 0 ? 'empty' : 'too-few-queries', message: `the model gave ${found.length} of ${count} sub-queries`, raw });
  }
  return { queries: found.slice(0, count), problems };
}

export interface MultiQueryExpanderOptions extends ExpanderSamplingOptions {
  readonly model: LanguageModel;
  /** Prompt with `{{query}}` and optionally `{{count}}`. @default EXPANSION_PROMPTS.multiQuery (LangChain MultiQueryRetriever) */
  readonly prompt?: string;
  /** @default {} */
  readonly promptVariables?: Readonly<Record<string, string>>;
  /** Sub-queries to ask for. @default 3 */
  readonly count?: number;
  /** Keep the original query as the first sub-query. @default true */
  readonly includeOriginal?: boolean;
}

/**
 * Multi-query expansion: an LLM rewrites the query into `count` alternative queries. The result's `text` is the
 * original query; `generations` are the parsed rewrites (the model's raw reply is `rawReplies[0]`); the
 * sub-queries to search (original first, by default) are the typed `subQueries`; `createMultiQueryRetriever` of
 * @factkit/retrieval searches the text and each sub-query and fuses the lists (reciprocal rank fusion by default).
 */
export function createMultiQueryExpander(options: MultiQueryExpanderOptions): QueryExpander {
  const where = 'createMultiQueryExpander';
  const { model, prompt = MULTI_QUERY_PROMPT, promptVariables = {}, system, count = 3, includeOriginal = true, temperature = 0.7, topP = 1.0, maxTokens = 512 } = options ?? ({} as MultiQueryExpanderOptions);
  const template = prepareGeneration({ where, model, prompt, promptVariables, temperature, topP, maxTokens, n: 1 });
  assertPositiveInteger('count', count, where);
  const setup: GenerationSetup = { step: 'multi-query', model, template, promptVariables, system, sampling: { temperature, topP, maxTokens, n: 1 } };
  return {
    id: `multi-query(${model.id})`,
    usesLanguageModel: true,
    async expand(request): Promise<ExpandedQuery> {
      const step = await generateForRequest('MultiQueryExpander.expand', request, setup, { count });
      const { query } = request;
      const generation = step.parsed[0];
      const problems: ItemProblem<ExpansionProblemCode>[] = [...step.problems];
      let subQueries: string[] = [];
      if (generation && (generation.problem === undefined || generation.problem.code === 'wrong-language')) {
        const parsed = parseSubQueries(generation.raw, { count, original: query.text });
        subQueries = parsed.queries;
        problems.push(...parsed.problems.map((problem) => ({ ...problem, index: 0 })));
      }
      const all = includeOriginal ? [query.text, ...subQueries] : subQueries.length > 0 ? subQueries : [query.text];
      return buildExpandedQuery({
        step,
        query,
        text: query.text,
        subQueries: all,
        metadata: query.metadata,
        rawReplies: generation === undefined ? [] : [generation.raw],
        // The generated sub-queries themselves (list markers and duplicates of the query removed); raw text in rawReplies.
        generations: subQueries,
        problems,
      });
    },
  };
}

/** The sub-queries of a multi-query expansion (its typed `subQueries`, blank ones dropped), or `[expanded.text]` for any other query. */
export function getSubQueries(expanded: Pick<Query, 'text' | 'subQueries'>): string[] {
  const strings = (expanded.subQueries ?? []).filter((entry) => typeof entry === 'string' && entry.trim().length > 0);
  return strings.length > 0 ? [...strings] : [expanded.text];
}

/** Merges several rankings into one (e.g. reciprocal rank fusion). Injected so fusion stays in the retrieval layer. */
export type FuseRankings = (rankings: readonly (readonly Evidence[])[], options: { readonly topK: number }) => Evidence[] | Promise<Evidence[]>;

export interface RetrieveWithSubQueriesOptions {
  readonly retriever: Retriever;
  readonly fuse: FuseRankings;
  /** Results per sub-query and after fusion. @default 10 */
  readonly topK?: number;
  /** Results fetched per sub-query before fusion. @default topK */
  readonly perQueryTopK?: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Searches every sub-query of `expanded` with `retriever` and fuses the rankings with `fuse`. A query without
 * sub-queries is searched as is (one ranking, still passed through `fuse`).
 * @throws InvalidArgumentError when `retriever` or `fuse` is missing; rethrows an abort's reason unchanged.
 */
export async function retrieveWithSubQueries(expanded: Query, options: RetrieveWithSubQueriesOptions): Promise<Evidence[]> {
  const where = 'retrieveWithSubQueries';
  const { retriever, fuse, topK = 10, abortSignal } = options ?? ({} as RetrieveWithSubQueriesOptions);
  const { perQueryTopK = topK } = options ?? {};
  if (!retriever || typeof retriever.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a Retriever' });
  if (typeof fuse !== 'function') throw new InvalidArgumentError({ where, argument: 'fuse', message: 'must be a function' });
  assertPositiveInteger('topK', topK, where);
  assertPositiveInteger('perQueryTopK', perQueryTopK, where);
  const rankings: Evidence[][] = [];
  for (const [index, text] of getSubQueries(expanded).entries()) {
    abortSignal?.throwIfAborted();
    const result = await retriever.retrieve({
      query: { ...(expanded.id === undefined ? {} : { id: `${expanded.id}#${index}` }), text },
      topK: perQueryTopK,
      ...(abortSignal ? { abortSignal } : {}),
    });
    rankings.push(result.evidence);
  }
  abortSignal?.throwIfAborted();
  return fuse(rankings, { topK });
}
