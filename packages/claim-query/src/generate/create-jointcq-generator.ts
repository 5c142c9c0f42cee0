import type { ItemProblem, LanguageModel } from '@factkit/core';
import { InvalidArgumentError, runPromptedStep, segmentSentences } from '@factkit/core';
import type { ClaimQueryGenerator, GeneratedClaims, GeneratedPair, QaItem } from '../detect/generator.js';
import { generatedPair, itemIdOf } from '../detect/generator.js';
import { detectPromptLanguage } from '../prompts/language.js';
import { createPaperPromptTemplate } from '../prompts/paper-template.js';
import type { PromptLanguage } from '../prompts/prompts.js';
import { CLAIM_QUERY_PROMPT_EN, CLAIM_QUERY_PROMPT_ZH, JOINTCQ_GENERATOR_SYSTEM_PROMPT } from '../prompts/prompts.js';
import type { ClaimQueryParse } from './parse-claim-query-reply.js';
import { parseClaimQueryReply } from './parse-claim-query-reply.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface JointCqGeneratorOptions {
  /** The Claim-Query Generator: the paper fine-tunes Qwen2.5-14B-Instruct; any chat model works with the prompt. */
  readonly model: LanguageModel;
  /** Prompts by language (Tables 21/22 by default); `{question}` and `{answer}` placeholders. */
  readonly prompts?: Readonly<Partial<Record<PromptLanguage, string>>>;
  /** @default CLAIM_QUERY_PROMPTS.en.generatorSystem (the authors'); pass '' for none */
  readonly system?: string;
  /** Appendix B: 0. @default 0 */
  readonly temperature?: number;
  /** @default 2048 */
  readonly maxTokens?: number;
  /** Answers longer than this are split at sentence boundaries into chunks generated separately. @default 4000 */
  readonly maxAnswerChars?: number;
  /** @default 4 */
  readonly concurrency?: number;
}

interface Chunk {
  readonly item: number;
  readonly question: string;
  readonly answer: string;
  readonly language: PromptLanguage;
}

function chunkAnswer(answer: string, maxChars: number): string[] {
  if (answer.length <= maxChars) return [answer];
  const chunks: string[] = [];
  let buffer = '';
  for (const sentence of segmentSentences(answer).map((span) => span.text)) {
    if (buffer && buffer.length + sentence.length + 1 > maxChars) {
      chunks.push(buffer);
      buffer = '';
    }
    if (sentence.length > maxChars) {
      for (let i = 0; i < sentence.length; i += maxChars) chunks.push(sentence.slice(i, i + maxChars));
      continue;
    }
    buffer = buffer ? `${buffer} ${sentence}` : sentence;
  }
  if (buffer) chunks.push(buffer);
  return chunks;
}

/**
 * The JointCQ Claim-Query Generator step (Tables 21/22): one call per (question, answer) returns claims and their
 * queries, parsed tolerantly ({@link parseClaimQueryReply}); very long answers are chunked at sentence boundaries.
 * A failed call makes the item 'failed' (never an empty claim list); parse problems are kept per item and per pair.
 * Calls are cacheable and resumable by wrapping `model` with core `withCache` (+ a file cache).
 * @example createJointCqGenerator({ model: withCache(withRetry(openai.languageModel('jointcq-14b')), { cache }) })
 */
export function createJointCqGenerator(options: JointCqGeneratorOptions): ClaimQueryGenerator {
  const { model, prompts = {}, system = JOINTCQ_GENERATOR_SYSTEM_PROMPT, temperature = 0, maxTokens = 2048, maxAnswerChars = 4000, concurrency = 4 } = options;
  const where = 'createJointCqGenerator';
  if (!model || typeof model.generate !== 'function') throw new InvalidArgumentError({ where, argument: 'model', message: 'must be a LanguageModel' });
  if (!(Number.isInteger(maxAnswerChars) && maxAnswerChars >= 200)) {
    throw new InvalidArgumentError({ where, argument: 'maxAnswerChars', message: `must be an integer >= 200 (got ${String(maxAnswerChars)})` });
  }
  const templates = {
    en: createPaperPromptTemplate(prompts.en ?? CLAIM_QUERY_PROMPT_EN),
    zh: createPaperPromptTemplate(prompts.zh ?? CLAIM_QUERY_PROMPT_ZH),
  };
  return {
    id: `jointcq(${model.id})`,
    async generate({ items, abortSignal }) {
      const chunks: Chunk[] = [];
      const perItemProblems: ItemProblem<ClaimQueryProblemCode>[][] = items.map(() => []);
      items.forEach((item: QaItem, index) => {
        const answer = typeof item.answer === 'string' ? item.answer : '';
        const question = typeof item.question === 'string' ? item.question : '';
        const language = item.language ?? detectPromptLanguage(`${question}${answer}`);
        const parts = chunkAnswer(answer, maxAnswerChars);
        if (parts.length > 1) perItemProblems[index]!.push({ code: 'answer-chunked', message: `answer of ${answer.length} characters split into ${parts.length} chunks` });
        for (const part of parts) chunks.push({ item: index, question, answer: part, language });
      });
      const results: Array<{ step: Awaited<ReturnType<typeof runPromptedStep<Chunk, ClaimQueryParse, ClaimQueryProblemCode>>>[number]; chunk: Chunk }> = [];
      for (const language of ['en', 'zh'] as const) {
        const group = chunks.filter((chunk) => chunk.language === language);
        if (group.length === 0) continue;
        const steps = await runPromptedStep<Chunk, ClaimQueryParse, ClaimQueryProblemCode>(group, {
          step: 'jointcq.generate',
          model,
          template: templates[language],
          variables: (chunk) => ({ question: chunk.question, answer: chunk.answer }),
          parse: (reply) => {
            const parsed = parseClaimQueryReply(reply);
            return { value: parsed, problems: parsed.problems };
          },
          ...(system ? { system } : {}),
          temperature,
          maxTokens,
          concurrency,
          ...(abortSignal ? { abortSignal } : {}),
        });
        steps.forEach((step, k) => results.push({ step, chunk: group[k]! }));
      }
      return items.map((item, index): GeneratedClaims => {
        const mine = results.filter((result) => result.chunk.item === index);
        const failed = mine.filter((result) => result.step.status === 'failed');
        const problems = [...perItemProblems[index]!, ...mine.flatMap((result) => result.step.problems)];
        const raw = mine.flatMap((result) => result.step.raw);
        const provenance = mine.map((result) => result.step.provenance);
        if (failed.length > 0) return { status: 'failed', pairs: [], noClaims: false, problems, raw, provenance };
        // Claims of every chunk, keyed `<item id>:c<k>` in order, each with the call that generated it.
        const itemId = itemIdOf(item, index);
        const pairs: GeneratedPair[] = mine
          .flatMap((result) => (result.step.value?.pairs ?? []).map((pair) => ({ pair, provenance: result.step.provenance })))
          .map(({ pair, provenance }, k) => generatedPair(itemId, k, pair.claim.text, pair.query?.text, { provenance: [provenance], problems: pair.problems }));
        const noClaims = pairs.length === 0 && mine.length > 0 && mine.every((result) => result.step.value?.noClaims);
        return { status: 'ok', pairs, noClaims, problems, raw, provenance };
      });
    },
  };
}
