import type { ClaimLabel, ItemProblem, LanguageModel } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError, runPromptedStep } from '@factkit/core';
import { detectPromptLanguage } from '../prompts/language.js';
import { createPaperPromptTemplate } from '../prompts/paper-template.js';
import type { PromptLanguage } from '../prompts/prompts.js';
import { VERIFIER_PROMPT_EN, VERIFIER_PROMPT_ZH } from '../prompts/prompts.js';
import type { ClaimVerdictRecord, SnippetJudgement } from '../types.js';
import type { ClaimVerifier, VerifyItem } from './create-nli-verifier.js';
import { formatReference } from './format-reference.js';
import { claimTerms, snippetRelevance } from './relevance.js';
import type { VerifierReply } from './parse-verifier-reply.js';
import { parseVerifierReply } from './parse-verifier-reply.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface LlmVerifierOptions {
  readonly model: LanguageModel;
  /** Prompts by language (Tables 23/24 by default); `{claim}` and `{reference}` placeholders. */
  readonly prompts?: Readonly<Partial<Record<PromptLanguage, string>>>;
  /** Appendix B: 0. @default 0 */
  readonly temperature?: number;
  /** Samples per claim; > 1 takes the majority of the readable labels. @default 1 */
  readonly samples?: number;
  /** @default 1024 */
  readonly maxTokens?: number;
  /** Longest reference block in characters (the authors cut prompts at 5,000). @default 4000 */
  readonly maxReferenceChars?: number;
  /** @default 4 */
  readonly concurrency?: number;
}

/** Majority over readable labels; a tie between the top labels gives undefined with a `tied-votes` problem. */
export function majorityLabel(labels: readonly (ClaimLabel | undefined)[]): { label?: ClaimLabel; votes: Partial<Record<ClaimLabel, number>>; problems: ItemProblem<ClaimQueryProblemCode>[] } {
  const votes: Partial<Record<ClaimLabel, number>> = {};
  for (const label of labels) if (label) votes[label] = (votes[label] ?? 0) + 1;
  const ranked = (Object.entries(votes) as [ClaimLabel, number][]).sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return { votes, problems: [] };
  if (ranked.length > 1 && ranked[0]![1] === ranked[1]![1]) {
    return {
      votes,
      problems: [
        {
          code: 'tied-votes',
          message: `tie between ${ranked
            .filter((r) => r[1] === ranked[0]![1])
            .map((r) => r[0])
            .join(' and ')}`,
        },
      ],
    };
  }
  return { label: ranked[0]![0], votes, problems: [] };
}

/**
 * The paper's LLM verifier (Tables 23/24, Appendix B): one prompt per claim with the query and its snippets as the
 * reference, temperature 0, options Correct / Hallucination / Irrelevant (→ unverifiable), optional majority over
 * `samples`, reasoning kept, provenance recorded. A failed call gives a 'failed' verdict, never a label; an unreadable
 * or tied answer gives 'unverifiable' with the problem (as the authors count unknown answers).
 * @example createLlmVerifier({ model: withRetry(openai.languageModel('qwen3-14b')) })
 */
export function createLlmVerifier(options: LlmVerifierOptions): ClaimVerifier {
  const { model, prompts = {}, temperature = 0, samples = 1, maxTokens = 1024, maxReferenceChars = 4000, concurrency = 4 } = options;
  const where = 'createLlmVerifier';
  if (!model || typeof model.generate !== 'function') throw new InvalidArgumentError({ where, argument: 'model', message: 'must be a LanguageModel' });
  assertPositiveInteger('samples', samples, where);
  const templates = {
    en: createPaperPromptTemplate(prompts.en ?? VERIFIER_PROMPT_EN),
    zh: createPaperPromptTemplate(prompts.zh ?? VERIFIER_PROMPT_ZH),
  };
  const id = `llm-verifier(${model.id})`;
  return {
    id,
    async verify({ items, abortSignal }) {
      const out: ClaimVerdictRecord[] = new Array(items.length);
      for (const language of ['en', 'zh'] as const) {
        const positions = items.map((item, index) => ((item.language ?? detectPromptLanguage(item.claim.text)) === language ? index : -1)).filter((i) => i >= 0);
        if (positions.length === 0) continue;
        const steps = await runPromptedStep<VerifyItem, VerifierReply, ClaimQueryProblemCode>(
          positions.map((i) => items[i]!),
          {
            step: 'jointcq.verify',
            model,
            template: templates[language],
            variables: (item) => ({ claim: item.claim.text, reference: formatReference(item.query?.text ?? item.claim.text, item.evidence, { language, maxChars: maxReferenceChars }) }),
            parse: (reply) => {
              const parsed = parseVerifierReply(reply);
              return { value: parsed, problems: parsed.problems };
            },
            temperature,
            maxTokens,
            ...(samples > 1 ? { n: samples } : {}),
            concurrency,
            ...(abortSignal ? { abortSignal } : {}),
          },
        );
        steps.forEach((step, k) => {
          const position = positions[k]!;
          if (step.status === 'failed') {
            out[position] = { status: 'failed', raw: [], verifier: id, problems: step.problems, provenance: step.provenance };
            return;
          }
          const replies = step.replies.map((reply) => reply.value);
          const { label, votes, problems } = majorityLabel(replies.map((reply) => reply?.label));
          const reasoning = replies.find((reply) => reply?.reasoning)?.reasoning;
          // The verifier reads the snippets that fit the reference budget together: they decide jointly, no label of their own.
          const item = items[position]!;
          const read = formatReference(item.query?.text ?? item.claim.text, item.evidence, { language, maxChars: maxReferenceChars }).split('\n').length - 1;
          const decided = label === 'correct' || label === 'hallucinated';
          const snippets: SnippetJudgement[] = item.evidence.map((evidence, index) => ({
            rank: index + 1,
            text: evidence.text,
            ...(evidence.origin ? { origin: evidence.origin } : {}),
            ...snippetRelevance(claimTerms(item.claim.text), evidence.text),
            decisive: decided && index < read,
          }));
          const why = label
            ? `${label}: the LLM verifier read snippet(s) #1–#${read} together and answered ${replies.map((reply) => reply?.label ?? 'unreadable').join(', ')}${label === 'unverifiable' ? ' (Irrelevant → unverifiable)' : ''}`
            : `unverifiable: ${problems.length > 0 ? 'tied votes' : 'unreadable verdict'}`;
          out[position] = {
            status: 'ok',
            label: label ?? 'unverifiable',
            ...(label ? {} : { reason: problems.length > 0 ? 'tied votes' : 'unreadable verdict' }),
            ...(reasoning ? { reasoning } : {}),
            raw: step.raw,
            ...(samples > 1 ? { votes } : {}),
            verifier: id,
            problems: [...step.problems, ...problems],
            provenance: step.provenance,
            snippets,
            why,
          };
        });
      }
      return out;
    },
  };
}
