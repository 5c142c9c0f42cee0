import { InvalidArgumentError, isAbortReason, ProviderCallError, redactSecrets } from '../errors/factkit-error.js';
import type { GenerateRequest, GenerateResult, LanguageModel } from '../language-model.js';
import { settleWithConcurrency } from '../llm/concurrency.js';
import { createPromptTemplate, type PromptTemplate } from '../prompt/prompt-template.js';
import type { ItemOutcome } from '../outcome/item-outcome.js';
import type { ProgressCallback } from '../outcome/progress.js';
import type { GenerationProvenance, GenerationSampling } from '../provenance.js';
import type { ItemProblem } from '../query.js';
import { EMPTY_USAGE } from '../usage.js';
import { assertNonEmptyString, assertPositiveInteger } from '../errors/guards.js';

/** What a reply parser read: the value (possibly partial) and what was wrong. `Code` is the parser's problem-code union. */
export interface ParseOutcome<T, Code extends string = string> {
  readonly value?: T;
  readonly problems: readonly ItemProblem<Code>[];
}

/** A pure reply parser: never throws, reports problems instead. */
export type ReplyParser<I, T, Code extends string = string> = (reply: string, input: I) => ParseOutcome<T, Code>;

export interface PromptedStepOptions<I, T, Code extends string = string> {
  /** Step name recorded in provenance, e.g. 'hyde', 'jointcq.generate'. */
  readonly step: string;
  readonly model: LanguageModel;
  /** The exported prompt constant (or a template made from it) with `{{name}}` placeholders. */
  readonly template: string | PromptTemplate;
  /** Placeholder values for one input. */
  readonly variables: (input: I, index: number) => Readonly<Record<string, string | number>>;
  /** Pure parser applied to every reply (`n` per input). */
  readonly parse: ReplyParser<I, T, Code>;
  /** @default undefined (no system message) */
  readonly system?: string;
  /** @default provider default */
  readonly temperature?: number;
  /** @default provider default */
  readonly topP?: number;
  /** @default provider default */
  readonly maxTokens?: number;
  /** Completions per input. @default 1 */
  readonly n?: number;
  /** Generation seed, fixed or per input (so repeated samples are cached apart). @default undefined */
  readonly seed?: number | ((input: I, index: number) => number);
  /** @default undefined */
  readonly stop?: readonly string[];
  /** Model calls running at once. @default 4 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Called after each input finishes (`failed` counts inputs whose item is `status: 'failed'`). */
  readonly onProgress?: ProgressCallback;
}

/**
 * The result of a prompted step for one input. Its problems carry a {@link StepProblemCode} or one of the parser's
 * codes (`Code`, inferred from `parse`), so a `switch` on `problem.code` is checked by the compiler.
 */
export interface StepItem<T, Code extends string = string> {
  /** Position of the input in the batch. */
  readonly index: number;
  /** 'failed' = the model call failed (after the caller's retry wrapper) or the prompt could not be rendered; `value` is then undefined. */
  readonly status: ItemOutcome<T>['status'];
  /** The first reply's parsed value (may be present with problems: parsed as far as possible). With `n > 1`, read `replies`. */
  readonly value?: T;
  /**
   * Every problem: a failed call is `call-failed` (message with secrets redacted); a reply the model did not return is
   * `missing-reply`; the rest come from the parser. With `n > 1`, a reply's problems carry `index` = the reply's position.
   */
  readonly problems: readonly ItemProblem<StepProblemCode | Code>[];
  /** Raw replies as the model returned them (`n` of them when the provider honours `n`); `[]` when the call failed. */
  readonly raw: readonly string[];
  /** One parse outcome per entry of `raw`. */
  readonly replies: readonly ParseOutcome<T, StepProblemCode | Code>[];
  readonly provenance: GenerationProvenance;
  /**
   * The error a failed call threw, for callers that must rethrow it (e.g. an expander's `expand`). Non-enumerable, so
   * it never reaches JSON, logs or caches; `problems` carries its redacted message.
   */
  readonly error?: unknown;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function safeParse<I, T, Code extends string>(parse: ReplyParser<I, T, Code>, reply: string, input: I): ParseOutcome<T, StepProblemCode | Code> {
  try {
    const outcome = parse(reply, input);
    if (!outcome || typeof outcome !== 'object' || !Array.isArray(outcome.problems)) {
      return { problems: [{ code: 'parse-failed', message: 'the parser returned no { value, problems } outcome' }] };
    }
    return outcome;
  } catch (error) {
    return { problems: [{ code: 'parse-failed', message: `the parser threw: ${redactSecrets(messageOf(error))}` }] };
  }
}

function checkOptions<I, T, Code extends string>(inputs: readonly I[], options: PromptedStepOptions<I, T, Code>): PromptTemplate {
  const where = 'runPromptedStep';
  if (!Array.isArray(inputs)) throw new InvalidArgumentError({ where, argument: 'inputs', message: 'must be an array' });
  if (!options || typeof options !== 'object') throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object' });
  const { step, model, template, variables, parse, n = 1, concurrency = 4 } = options;
  assertNonEmptyString('step', step, where);
  if (!model || typeof model.generate !== 'function') {
    throw new InvalidArgumentError({ where, argument: 'model', message: 'must be a LanguageModel (an object with generate())' });
  }
  if (typeof variables !== 'function') throw new InvalidArgumentError({ where, argument: 'variables', message: 'must be a function (input, index) => values' });
  if (typeof parse !== 'function') throw new InvalidArgumentError({ where, argument: 'parse', message: 'must be a function (reply, input) => { value, problems }' });
  assertPositiveInteger('n', n, where);
  assertPositiveInteger('concurrency', concurrency, where);
  if (typeof template === 'string') return createPromptTemplate(template);
  if (!template || typeof template.render !== 'function') {
    throw new InvalidArgumentError({ where, argument: 'template', message: 'must be a prompt string or a PromptTemplate' });
  }
  return template;
}

/**
 * Runs one prompted LLM step over a batch: renders `template` with `variables(input)`, calls `model` with bounded
 * concurrency, parses every reply with the pure `parse`, and returns one {@link StepItem} per input, in input order,
 * each with its raw replies and {@link GenerationProvenance}.
 *
 * A failed call is an item with `status: 'failed'` and a `call-failed` problem, never a default value; the other
 * items are kept. An abort stops new calls and rethrows the signal's reason. Wrap `model` with core `withRetry` and
 * `withCache` for retries and free reruns (`provenance.cached` then tells which replies came from the cache).
 * @throws InvalidArgumentError for a bad argument (checked before any call).
 * @example
 * const items = await runPromptedStep(claims, {
 *   step: 'verdict', model, template: VERDICT_PROMPT, variables: (claim) => ({ claim: claim.text }),
 *   parse: (reply) => parseLabel(reply, { labels: ['Supported', 'Refuted'] }),
 * });
 */
export async function runPromptedStep<I, T, Code extends string = string>(inputs: readonly I[], options: PromptedStepOptions<I, T, Code>): Promise<StepItem<T, Code>[]> {
  const template = checkOptions(inputs, options);
  const { step, model, variables, parse, system, temperature, topP, maxTokens, n = 1, seed, stop, concurrency = 4, abortSignal, onProgress } = options;
  let failed = 0;

  const runOne = async (input: I, index: number): Promise<StepItem<T, Code>> => {
    let itemSeed: number | undefined;
    let seedError: unknown;
    try {
      itemSeed = typeof seed === 'function' ? seed(input, index) : seed;
    } catch (error) {
      seedError = error;
    }
    const sampling: GenerationSampling = {
      ...(temperature === undefined ? {} : { temperature }),
      ...(topP === undefined ? {} : { topP }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
      n,
      ...(itemSeed === undefined ? {} : { seed: itemSeed }),
      ...(stop === undefined ? {} : { stop: [...stop] }),
    };
    const startedAt = new Date().toISOString();
    const provenanceBase = {
      step,
      ...(model.provider === undefined ? {} : { provider: model.provider }),
      modelId: model.id,
      ...(system === undefined ? {} : { system }),
      sampling,
    };
    const failure = (code: StepProblemCode, message: string, prompts: readonly string[], error: unknown): StepItem<T, Code> => {
      failed += 1;
      const item: StepItem<T, Code> = {
        index,
        status: 'failed',
        problems: [{ index, code, message: redactSecrets(message) }],
        raw: [],
        replies: [],
        provenance: { ...provenanceBase, prompts, usage: EMPTY_USAGE, cached: false, startedAt, finishedAt: new Date().toISOString() },
      };
      return Object.defineProperty(item, 'error', { value: error, enumerable: false });
    };

    if (seedError !== undefined) return failure('invalid-input', `could not compute the seed: ${messageOf(seedError)}`, [], seedError);
    let prompt: string;
    try {
      prompt = template.render(variables(input, index));
    } catch (error) {
      return failure('invalid-input', `could not render the prompt: ${messageOf(error)}`, [], error);
    }
    const request: GenerateRequest = {
      prompt,
      ...(system === undefined ? {} : { system }),
      ...sampling,
      ...(abortSignal === undefined ? {} : { abortSignal }),
    };
    let result: GenerateResult;
    try {
      result = await model.generate(request);
    } catch (error) {
      if (isAbortReason(error, abortSignal) || abortSignal?.aborted) throw abortSignal?.reason ?? error;
      return failure('call-failed', messageOf(error), [prompt], error);
    }
    if (!result || !Array.isArray(result.texts)) {
      const error = new ProviderCallError({ provider: model.id, message: 'returned no texts', isRetryable: false });
      return failure('call-failed', error.message, [prompt], error);
    }

    const raw: string[] = [];
    const replies: ParseOutcome<T, StepProblemCode | Code>[] = [];
    const problems: ItemProblem<StepProblemCode | Code>[] = [];
    result.texts.forEach((text, replyIndex) => {
      if (typeof text !== 'string') {
        raw.push('');
        const outcome: ParseOutcome<T, StepProblemCode> = { problems: [{ code: 'missing-reply', message: `reply ${replyIndex} is not text (got ${text === null ? 'null' : typeof text})` }] };
        replies.push(outcome);
        problems.push({ ...outcome.problems[0]!, index: replyIndex });
        return;
      }
      raw.push(text);
      const outcome = safeParse(parse, text, input);
      replies.push(outcome);
      for (const problem of outcome.problems) problems.push(n > 1 && problem.index === undefined ? { ...problem, index: replyIndex } : problem);
    });
    for (let missing = result.texts.length; missing < n; missing += 1) {
      problems.push({ index: missing, code: 'missing-reply', message: `the model returned ${result.texts.length} of ${n} replies` });
    }
    const first = replies[0];
    return {
      index,
      status: 'ok',
      ...(first?.value === undefined ? {} : { value: first.value }),
      problems,
      raw,
      replies,
      provenance: {
        ...provenanceBase,
        prompts: [prompt],
        usage: result.usage ?? EMPTY_USAGE,
        cached: result.cached === true,
        startedAt,
        finishedAt: new Date().toISOString(),
      },
    };
  };

  const settled = await settleWithConcurrency(inputs, runOne, {
    concurrency,
    ...(abortSignal === undefined ? {} : { abortSignal }),
    onProgress: ({ completed, total }) => onProgress?.({ completed, total, failed }),
  });
  return settled.map((entry) => {
    if (entry.status === 'rejected') throw entry.error;
    return entry.value;
  });
}

/** The problem codes `runPromptedStep` itself reports (a parser adds its own). */
export type StepProblemCode = 'call-failed' | 'invalid-input' | 'missing-reply' | 'parse-failed';

/**
 * The {@link ItemOutcome} of a step item: `ok` when the call succeeded and the first reply parsed to a value (its
 * problems kept), `failed` otherwise, with every problem and the first raw reply. Use it where a value is needed.
 * @example
 * const outcomes = (await runPromptedStep(inputs, options)).map(stepOutcome);
 */
export function stepOutcome<T, Code extends string = string>(item: StepItem<T, Code>): ItemOutcome<T, StepProblemCode | Code> {
  if (item.status === 'ok' && item.value !== undefined) {
    return item.problems.length === 0 ? { status: 'ok', value: item.value } : { status: 'ok', value: item.value, problems: item.problems };
  }
  const problems: readonly ItemProblem<StepProblemCode | Code>[] = item.problems.length > 0 ? item.problems : [{ index: item.index, code: 'parse-failed', message: 'the reply gave no value' }];
  return item.raw[0] === undefined ? { status: 'failed', problems } : { status: 'failed', problems, raw: item.raw[0] };
}
