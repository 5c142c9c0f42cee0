import type { GenerationProvenance, ItemProblem, LanguageModel } from '@factkit/core';
import { InvalidArgumentError, createLabelParser, runPromptedStep } from '@factkit/core';
import { detectPromptLanguage } from '../prompts/language.js';
import { createPaperPromptTemplate } from '../prompts/paper-template.js';
import type { ClaimCriterion, Criterion, PromptLanguage, QueryCriterion } from '../prompts/prompts.js';
import { CLAIM_QUERY_PROMPTS } from '../prompts/prompts.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

/** One criterion to check (§3.3.3): claim sets for entailment/coverage, one claim for decontextualisation, one pair for query criteria. */
export type CriterionCheck =
  | { readonly criterion: 'entailment' | 'coverage'; readonly question: string; readonly answer: string; readonly claims: readonly string[]; readonly language?: PromptLanguage }
  | { readonly criterion: 'decontextualization'; readonly question: string; readonly answer: string; readonly claim: string; readonly language?: PromptLanguage }
  | { readonly criterion: QueryCriterion; readonly claim: string; readonly query: string; readonly language?: PromptLanguage };

export interface CriterionResult {
  readonly criterion: Criterion;
  /** 'failed' when the model call failed: `pass` is then undefined (never a pass or a fail). */
  readonly status: 'ok' | 'failed';
  /** Yes → true, No → false; undefined when the judgement could not be read (`ambiguous-label`, `no-label`). */
  readonly pass?: boolean;
  /** The raw judgement text. */
  readonly judgement?: string;
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
  readonly provenance: GenerationProvenance;
}

export interface CheckCriteriaOptions {
  readonly model: LanguageModel;
  /** Appendix A.2: 0. @default 0 */
  readonly temperature?: number;
  /** @default 16 */
  readonly maxTokens?: number;
  /** @default 4 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
}

const parseYesNo = createLabelParser<'Yes' | 'No'>({ labels: ['Yes', 'No'], aliases: { 是: 'Yes', 否: 'No' }, negations: { Yes: 'No', No: 'Yes' } });
const CLAIM_CRITERIA_SET = new Set<Criterion>(['entailment', 'coverage', 'decontextualization']);

/** Reads a Yes/No (是/否) judgement; "not yes" is No, hedges are `ambiguous-label`. Pure. */
export function parseCriterionJudgement(reply: string): { pass?: boolean; problems: readonly ItemProblem<ClaimQueryProblemCode>[] } {
  const raw = typeof reply === 'string' ? reply : '';
  const close = raw.lastIndexOf('</think>');
  const text = close >= 0 ? raw.slice(close + '</think>'.length) : raw;
  const parsed = parseYesNo(text);
  return { ...(parsed.label ? { pass: parsed.label === 'Yes' } : {}), problems: parsed.problems };
}

/**
 * The six criteria of §3.3 as validators with the paper's prompts (Tables 17–20), one criterion per call, temperature
 * 0: entailment and coverage over a claim set, decontextualisation per claim, relevance / conciseness / usability per
 * claim–query pair. Each result has pass/fail, the raw judgement and provenance; a failed call is 'failed'.
 */
export async function checkCriteria(checks: readonly CriterionCheck[], options: CheckCriteriaOptions): Promise<CriterionResult[]> {
  const { model, temperature = 0, maxTokens = 16, concurrency = 4, abortSignal } = options;
  if (!model || typeof model.generate !== 'function') throw new InvalidArgumentError({ where: 'checkCriteria', argument: 'model', message: 'must be a LanguageModel' });
  const results: CriterionResult[] = new Array(checks.length);
  const languageOf = (check: CriterionCheck): PromptLanguage => check.language ?? detectPromptLanguage('claims' in check ? check.claims.join(' ') : check.claim);
  for (const language of ['en', 'zh'] as const) {
    for (const kind of ['claim', 'query'] as const) {
      const positions = checks.map((check, index) => (languageOf(check) === language && CLAIM_CRITERIA_SET.has(check.criterion) === (kind === 'claim') ? index : -1)).filter((index) => index >= 0);
      if (positions.length === 0) continue;
      const prompts = CLAIM_QUERY_PROMPTS[language];
      const steps = await runPromptedStep<CriterionCheck, boolean, ClaimQueryProblemCode>(
        positions.map((index) => checks[index]!),
        {
          step: `jointcq.criteria.${kind}`,
          model,
          template: createPaperPromptTemplate(kind === 'claim' ? prompts.claimFilter : prompts.queryFilter),
          variables: (check): Readonly<Record<string, string>> => {
            if ('claims' in check) {
              return { criterion: prompts.claimCriteria[check.criterion], question: check.question, answer: check.answer, claims: check.claims.join('\n') };
            }
            if (!('query' in check)) {
              return { criterion: prompts.claimCriteria.decontextualization, question: check.question, answer: check.answer, claims: check.claim };
            }
            return { criterion: prompts.queryCriteria[check.criterion], claim: check.claim, query: check.query };
          },
          parse: (reply) => {
            const parsed = parseCriterionJudgement(reply);
            return { ...(parsed.pass === undefined ? {} : { value: parsed.pass }), problems: parsed.problems };
          },
          temperature,
          maxTokens,
          concurrency,
          ...(abortSignal ? { abortSignal } : {}),
        },
      );
      steps.forEach((step, k) => {
        const check = checks[positions[k]!]!;
        results[positions[k]!] = {
          criterion: check.criterion,
          status: step.status,
          ...(step.value === undefined ? {} : { pass: step.value }),
          ...(step.raw[0] === undefined ? {} : { judgement: step.raw[0] }),
          problems: step.problems,
          provenance: step.provenance,
        };
      });
    }
  }
  return results;
}

export type { ClaimCriterion, QueryCriterion };
