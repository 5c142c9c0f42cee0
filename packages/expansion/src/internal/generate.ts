import {
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertNonNegativeNumber,
  assertPositiveInteger,
  createPromptTemplate,
  InvalidArgumentError,
  ProviderCallError,
  runPromptedStep,
  type ExpandedQuery,
  type ExpandRequest,
  type GenerationProvenance,
  type ItemProblem,
  type LanguageModel,
  type PromptTemplate,
  type Query,
} from '@factkit/core';
import { type GenerationProblemCode, parseGeneration, type ParsedGeneration } from '../parse-generation.js';
import type { ExpanderSamplingOptions } from '../sampling-options.js';

export type { ExpanderSamplingOptions };

/** Sampling settings sent with every generation. */
export interface SamplingSettings {
  readonly temperature: number;
  readonly topP: number;
  readonly maxTokens: number;
  readonly n: number;
}

export interface GenerationStep {
  /** One parsed generation per requested completion (`n`); a completion the model did not return is `missing`. */
  readonly parsed: readonly ParsedGeneration[];
  readonly problems: ItemProblem<GenerationProblemCode>[];
  readonly provenance: GenerationProvenance;
}

/** Checks the model, prompt and sampling options once, at construction. */
export function prepareGeneration(options: {
  where: string;
  model: LanguageModel | undefined;
  prompt: string;
  promptVariables: Readonly<Record<string, string>>;
  temperature: number;
  topP: number;
  maxTokens: number;
  n: number;
}): PromptTemplate {
  const { where, model, prompt, promptVariables, temperature, topP, maxTokens, n } = options;
  if (!model || typeof model.generate !== 'function') {
    throw new InvalidArgumentError({ where, argument: 'model', message: 'must be a LanguageModel (an object with generate())' });
  }
  assertNonEmptyString('prompt', prompt, where);
  const template = createPromptTemplate(prompt);
  if (!template.variables.includes('query')) {
    throw new InvalidArgumentError({ where, argument: 'prompt', message: 'must contain the {{query}} placeholder' });
  }
  const missing = template.variables.filter((name) => name !== 'query' && name !== 'count' && promptVariables[name] === undefined);
  if (missing.length > 0) {
    throw new InvalidArgumentError({
      where,
      argument: 'promptVariables',
      message: `must give ${missing.map((name) => `"${name}"`).join(', ')} (used by the prompt)`,
    });
  }
  assertNonNegativeNumber('temperature', temperature, where);
  if (!Number.isFinite(topP) || topP <= 0 || topP > 1) {
    throw new InvalidArgumentError({ where, argument: 'topP', message: `must be in (0, 1] (got ${topP})` });
  }
  assertPositiveInteger('maxTokens', maxTokens, where);
  assertPositiveInteger('n', n, where);
  return template;
}

/** Validates an expand request and returns the sample index (the generation seed). */
export function checkRequest(where: string, request: ExpandRequest): number {
  if (!request || typeof request !== 'object' || !request.query || typeof request.query.text !== 'string') {
    throw new InvalidArgumentError({ where, argument: 'request.query', message: 'must be a Query with a string "text"' });
  }
  if (request.query.text.trim().length === 0) {
    throw new InvalidArgumentError({ where, argument: 'request.query.text', message: 'must not be empty' });
  }
  const sample = request.sample ?? 0;
  assertNonNegativeInteger('request.sample', sample, where);
  request.abortSignal?.throwIfAborted();
  return sample;
}

/** What an expander fixes at construction: the model, its checked prompt, extra prompt values and sampling. */
export interface GenerationSetup {
  /** Step name recorded in provenance: 'hyde', 'query2doc', 'multi-query'. */
  readonly step: string;
  readonly model: LanguageModel;
  readonly template: PromptTemplate;
  readonly promptVariables: Readonly<Record<string, string>>;
  readonly system: string | undefined;
  readonly sampling: SamplingSettings;
}

/**
 * Checks an expand request (see {@link checkRequest}) and runs the prompted step (core `runPromptedStep`) for its
 * query, with the prompt values `{ ...promptVariables, ...extraValues, query }` and `seed = request.sample`, then
 * cleans and checks every completion with {@link parseGeneration}. A failed call rethrows its error.
 */
export async function generateForRequest(where: string, request: ExpandRequest, setup: GenerationSetup, extraValues: Readonly<Record<string, string | number>> = {}): Promise<GenerationStep> {
  const sample = checkRequest(where, request);
  const { query, abortSignal } = request;
  const { sampling } = setup;
  const [item] = await runPromptedStep([query], {
    step: setup.step,
    model: setup.model,
    template: setup.template,
    variables: () => ({ ...setup.promptVariables, ...extraValues, query: query.text }),
    parse: (reply) => ({ value: parseGeneration(reply, { query: query.text }), problems: [] }),
    ...(setup.system === undefined ? {} : { system: setup.system }),
    temperature: sampling.temperature,
    topP: sampling.topP,
    maxTokens: sampling.maxTokens,
    n: sampling.n,
    seed: sample,
    concurrency: 1,
    ...(abortSignal === undefined ? {} : { abortSignal }),
  });
  if (!item || item.status === 'failed') {
    throw item?.error ?? new ProviderCallError({ provider: setup.model.id, message: item?.problems[0]?.message ?? 'the model call failed', isRetryable: false });
  }
  const parsed: ParsedGeneration[] = [];
  const problems: ItemProblem<GenerationProblemCode>[] = [];
  for (let index = 0; index < sampling.n; index += 1) {
    const entry = item.replies[index]?.value ?? parseGeneration(undefined, { query: query.text });
    parsed.push(entry);
    if (entry.problem) problems.push({ index, code: entry.problem.code, message: entry.problem.message, raw: entry.raw });
  }
  return { parsed, problems, provenance: item.provenance };
}

/** Texts of the generations an expansion uses: unflagged ones, or (with `keepFlagged`) every non-blank one. */
export function usableGenerations(parsed: readonly ParsedGeneration[], keepFlagged: boolean): string[] {
  return parsed.filter((entry) => (keepFlagged ? entry.text.trim().length > 0 : entry.problem === undefined)).map((entry) => entry.text);
}

/**
 * Builds the ExpandedQuery every LLM expander returns: the original query's id, the new text (and vector or
 * sub-queries), the metadata given (left out when undefined), the generations, and the step's GenerationProvenance
 * (model, exact prompt, sampling with its seed, usage, cached, timestamps). `problems` is left out when empty.
 */
export function buildExpandedQuery(options: {
  step: GenerationStep;
  query: Query;
  text: string;
  vector?: Float32Array;
  subQueries?: readonly string[];
  metadata: Readonly<Record<string, unknown>> | undefined;
  generations: readonly string[];
  rawReplies?: readonly string[];
  problems: readonly ItemProblem[];
}): ExpandedQuery {
  const { step, query, text, vector, subQueries, metadata, generations, rawReplies, problems } = options;
  return {
    ...(query.id === undefined ? {} : { id: query.id }),
    text,
    ...(vector === undefined ? {} : { vector }),
    ...(subQueries === undefined ? {} : { subQueries }),
    ...(metadata === undefined ? {} : { metadata }),
    original: query,
    generations,
    provenance: step.provenance,
    ...(problems.length === 0 ? {} : { problems }),
    ...(rawReplies === undefined ? {} : { rawReplies }),
  };
}
