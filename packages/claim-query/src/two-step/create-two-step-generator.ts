import type { Claim, Embedder, ItemProblem, LanguageModel } from '@factkit/core';
import { InvalidArgumentError, parseListItems, runPromptedStep } from '@factkit/core';
import type { ClaimQueryGenerator, GeneratedClaims, GeneratedPair, QaItem } from '../detect/generator.js';
import { claimIdOf, itemIdOf, pairOf } from '../detect/generator.js';
import { detectPromptLanguage } from '../prompts/language.js';
import { createPaperPromptTemplate } from '../prompts/paper-template.js';
import type { PromptLanguage } from '../prompts/prompts.js';
import { CLAIM_QUERY_PROMPTS } from '../prompts/prompts.js';
import type { ClaimExample, QueryExample } from './select-examples.js';
import { formatClaimExamples, formatQueryExamples, sampleQueryExamples, selectClaimExamples } from './select-examples.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface TwoStepGeneratorOptions {
  readonly model: LanguageModel;
  /** Hand-written claim examples per language (the paper's pool; 3 chosen per QA pair). */
  readonly claimExamples: Readonly<Partial<Record<PromptLanguage, readonly ClaimExample[]>>>;
  /** Hand-written query examples per language (3 sampled per claim). */
  readonly queryExamples: Readonly<Partial<Record<PromptLanguage, readonly QueryExample[]>>>;
  /** Embedder for the semantic part of example selection. */
  readonly embedder: Embedder;
  /** Appendix A.1 uses 0.9 for data synthesis; Appendix B's detection uses 0. @default 0 */
  readonly temperature?: number;
  /** @default 0 */
  readonly seed?: number;
  /** @default 4 */
  readonly concurrency?: number;
}

const NO_CLAIMS = /^(no claims?\.?|无陈述[。.]?)$/iu;
const NO_QUERY = /^(no query\.?|无查询[。.]?)$/iu;

/** Claim lines of a claim-synthesis reply (Tables 13/14): list items, "No claims." / 无陈述 read as none. Pure. */
export function parseClaimSynthesisReply(reply: string): { value: { claims: string[]; noClaims: boolean }; problems: ItemProblem<ClaimQueryProblemCode>[] } {
  const text = typeof reply === 'string' ? reply.replace(/^[\s\S]*<\/think>/u, '').replace(/^\s*\[(Claims|陈述)\]\s*/iu, '') : '';
  const { items, problems } = parseListItems(text);
  const claims = items.filter((item) => !NO_CLAIMS.test(item.trim()));
  const noClaims = claims.length === 0 && items.some((item) => NO_CLAIMS.test(item.trim()));
  return { value: { claims, noClaims }, problems: [...problems, ...(claims.length === 0 && !noClaims ? [{ code: 'no-claims-parsed' as const, message: 'no claim line in the reply' }] : [])] };
}

/** The query of a query-synthesis reply (Tables 15/16): the first non-empty line; "No query" / 无查询 → none. Pure. */
export function parseQuerySynthesisReply(reply: string): { value: { query?: string }; problems: ItemProblem<ClaimQueryProblemCode>[] } {
  const text = typeof reply === 'string' ? reply.replace(/^[\s\S]*<\/think>/u, '') : '';
  const lines = text
    .split('\n')
    .map((line) => line.replace(/^\s*(\[(Query|查询)\]|query:|查询：)\s*/iu, '').trim())
    .filter(Boolean);
  const first = lines[0]?.replace(/^["“]|["”]$/gu, '');
  if (!first) return { value: {}, problems: [{ code: 'empty-reply', message: 'no query line' }] };
  if (NO_QUERY.test(first)) return { value: {}, problems: [] };
  return { value: { query: first }, problems: lines.length > 1 ? [{ code: 'extra-text', message: 'lines after the query ignored', raw: lines.slice(1).join('\n').slice(0, 300) }] : [] };
}

/**
 * The two-step baseline of §3.2 ("replace CQG" in Table 3): claim synthesis with 3 examples chosen per QA pair
 * (top-3 semantic + top-3 by answer length, 3 sampled; Tables 13/14), then one query per claim with 3 random examples
 * (Tables 15/16). Two model steps, each through core runPromptedStep with provenance.
 */
export function createTwoStepGenerator(options: TwoStepGeneratorOptions): ClaimQueryGenerator {
  const { model, claimExamples, queryExamples, embedder, temperature = 0, seed = 0, concurrency = 4 } = options;
  if (!model || typeof model.generate !== 'function') throw new InvalidArgumentError({ where: 'createTwoStepGenerator', argument: 'model', message: 'must be a LanguageModel' });
  return {
    id: `two-step(${model.id})`,
    async generate({ items, abortSignal }) {
      const out: GeneratedClaims[] = new Array(items.length);
      for (const language of ['en', 'zh'] as const) {
        const positions = items.map((item, i) => ((item.language ?? detectPromptLanguage(`${item.question}${item.answer}`)) === language ? i : -1)).filter((i) => i >= 0);
        if (positions.length === 0) continue;
        const pool = claimExamples[language] ?? [];
        if (pool.length === 0) throw new InvalidArgumentError({ where: 'createTwoStepGenerator', argument: `claimExamples.${language}`, message: 'must hold at least one example' });
        const group = positions.map((i) => items[i]!);
        const chosen = await selectClaimExamples(group, { pool, embedder, seed, ...(abortSignal ? { abortSignal } : {}) });
        const claimSteps = await runPromptedStep<QaItem, { claims: string[]; noClaims: boolean }, ClaimQueryProblemCode>(group, {
          step: 'jointcq.two-step.claims',
          model,
          template: createPaperPromptTemplate(CLAIM_QUERY_PROMPTS[language].claimSynthesis),
          variables: (item, k) => ({
            examples: formatClaimExamples(
              chosen[k]!.map((index) => pool[index]!),
              language,
            ),
            question: item.question,
            answer: item.answer,
          }),
          parse: parseClaimSynthesisReply,
          temperature,
          concurrency,
          ...(abortSignal ? { abortSignal } : {}),
        });
        // The synthesised claims as core Claims (`<item id>:c<k>`): the query step reads them and its pairs carry them.
        const claimInputs = claimSteps.flatMap((step, k) => {
          const itemId = itemIdOf(group[k]!, positions[k]!);
          return (step.value?.claims ?? []).map((text, c) => ({ k, claim: { id: claimIdOf(itemId, c), text } }));
        });
        const queryPool = queryExamples[language] ?? [];
        const querySteps = await runPromptedStep<{ k: number; claim: Claim }, { query?: string }, ClaimQueryProblemCode>(claimInputs, {
          step: 'jointcq.two-step.query',
          model,
          template: createPaperPromptTemplate(CLAIM_QUERY_PROMPTS[language].querySynthesis),
          variables: (input, index) => ({ examples: formatQueryExamples(sampleQueryExamples(queryPool, { seed: seed * 1_000_003 + index }), language), claim: input.claim.text }),
          parse: parseQuerySynthesisReply,
          temperature,
          concurrency,
          ...(abortSignal ? { abortSignal } : {}),
        });
        claimSteps.forEach((step, k) => {
          const mine = claimInputs.map((input, index) => ({ input, step: querySteps[index]! })).filter((entry) => entry.input.k === k);
          const provenance = [step.provenance, ...mine.map((entry) => entry.step.provenance)];
          if (step.status === 'failed') {
            out[positions[k]!] = { status: 'failed', pairs: [], noClaims: false, problems: step.problems, raw: step.raw, provenance };
            return;
          }
          const pairs: GeneratedPair[] = mine.map(({ input, step: queryStep }) => pairOf(input.claim, queryStep.value?.query, { provenance: [step.provenance, queryStep.provenance], problems: queryStep.problems }));
          const queryFailed = mine.filter((entry) => entry.step.status === 'failed').length;
          out[positions[k]!] = {
            status: queryFailed > 0 ? 'failed' : 'ok',
            pairs: queryFailed > 0 ? [] : pairs,
            noClaims: step.value?.noClaims ?? false,
            problems: [...step.problems, ...(queryFailed > 0 ? [{ code: 'call-failed' as const, message: `${queryFailed} query call(s) failed` }] : [])],
            raw: [...step.raw, ...mine.flatMap((entry) => entry.step.raw)],
            provenance,
          };
        });
      }
      return out;
    },
  };
}
