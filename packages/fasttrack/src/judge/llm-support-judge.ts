import { addUsage, assertPositiveInteger, createPromptTemplate, EMPTY_USAGE, InvalidArgumentError, type LanguageModel, runPromptedStep, type StepItem, throwIfAborted, type Usage, type ItemProblem } from '@factkit/core';
import { renderCandidateTexts, SUPPORT_PROMPT } from '../prompts.js';
import { parseSupportScores, type ParsedSupportScores } from './parse-support-scores.js';
import { supportJudgement, type JudgeCall, type SupportJudge, type SupportJudgement, type SupportJudgeRequest, type SupportJudgeResult } from './support-judge.js';
import type { FastTrackProblemCode } from '../problem-codes.js';

export interface LlmSupportJudgeOptions {
  /** Wrap it with core `withCache` (resumable) and `withRetry`. */
  readonly model: LanguageModel;
  /** Prompt with `{{query}}` and `{{texts}}`. @default FASTTRACK_PROMPTS.support (paper Fig. 4); FASTTRACK_PROMPTS.supportContrastive is Fig. 5 */
  readonly template?: string;
  /** Candidates per call (the paper's b). @default 15 */
  readonly batchSize?: number;
  /** @default 0 (paper, Appendix E) */
  readonly temperature?: number;
  /** @default 1024 (paper, Appendix E) */
  readonly maxTokens?: number;
  /** Re-ask the candidates of a malformed batch reply one by one. @default true */
  readonly reaskMalformed?: boolean;
  /** @default 4 */
  readonly concurrency?: number;
}

/**
 * The paper's batched support judge: candidates go in batches of b = 15 with the Fig. 4 (or Fig. 5) prompt; a score of
 * 1 means the text supports the claim. A reply without a usable `#scores:` list of the right length is re-asked item by
 * item; an item whose score still cannot be read (or whose call failed) is `supports: null` with its problems, never a
 * guessed 0 or 1.
 * @throws InvalidArgumentError for a bad `batchSize` or a template without `{{query}}`/`{{texts}}`.
 */
export function createLlmSupportJudge(options: LlmSupportJudgeOptions): SupportJudge {
  const { model, template = SUPPORT_PROMPT, batchSize = 15, temperature = 0, maxTokens = 1024, reaskMalformed = true, concurrency = 4 } = options;
  const where = 'createLlmSupportJudge';
  assertPositiveInteger('batchSize', batchSize, where);
  const prompt = createPromptTemplate(template);
  for (const name of ['query', 'texts']) {
    if (!prompt.variables.includes(name)) throw new InvalidArgumentError({ where, argument: 'template', message: `must contain {{${name}}}` });
  }
  type Group = readonly { documentId: string; text: string }[];
  const call = async (query: string, groups: readonly Group[], abortSignal: AbortSignal | undefined): Promise<Array<StepItem<ParsedSupportScores, FastTrackProblemCode>>> =>
    runPromptedStep<Group, ParsedSupportScores, FastTrackProblemCode>(groups, {
      step: 'fasttrack.judge',
      model,
      template: prompt,
      variables: (group) => ({ query, texts: renderCandidateTexts(group.map((candidate) => candidate.text)) }),
      parse: (reply, group) => {
        const parsed = parseSupportScores(reply, group.length);
        return { value: parsed, problems: parsed.problems };
      },
      temperature,
      maxTokens,
      concurrency,
      ...(abortSignal ? { abortSignal } : {}),
    });
  return {
    id: `llm-judge(${model.id}, b=${batchSize})`,
    batchSize,
    async judge(request: SupportJudgeRequest): Promise<SupportJudgeResult> {
      const { query, candidates, abortSignal } = request;
      throwIfAborted(abortSignal);
      const batches: (typeof candidates)[] = [];
      for (let start = 0; start < candidates.length; start += batchSize) batches.push(candidates.slice(start, start + batchSize));
      const outcomes = await call(query, batches, abortSignal);
      const supports: (boolean | null)[] = new Array<boolean | null>(candidates.length).fill(null);
      const problems: ItemProblem<FastTrackProblemCode>[][] = candidates.map(() => []);
      const calls: JudgeCall[] = [];
      let usage: Usage = EMPTY_USAGE;
      const reask: number[] = [];
      outcomes.forEach((outcome, batchIndex) => {
        const batch = batches[batchIndex] as typeof candidates;
        const offset = batchIndex * batchSize;
        usage = addUsage(usage, outcome.provenance.usage);
        if (outcome.status === 'failed') {
          calls.push({ documentIds: batch.map((candidate) => candidate.documentId), status: 'failed', analysis: '', raw: '', problems: outcome.problems, provenance: outcome.provenance, reasked: false });
          batch.forEach((_, position) => problems[offset + position]!.push(...outcome.problems));
          return;
        }
        const parsed = outcome.value ?? parseSupportScores(outcome.raw[0] ?? '', batch.length);
        calls.push({ documentIds: batch.map((candidate) => candidate.documentId), status: 'ok', analysis: parsed.analysis, raw: outcome.raw[0] ?? '', problems: parsed.problems, provenance: outcome.provenance, reasked: false });
        parsed.scores.forEach((score, position) => {
          if (score !== null) supports[offset + position] = score === 1;
          else if (reaskMalformed && batch.length > 1) reask.push(offset + position);
          else problems[offset + position]!.push(...parsed.problems.filter((problem) => problem.index === undefined || problem.index === position));
        });
      });
      if (reask.length > 0) {
        const singles = await call(
          query,
          reask.map((index) => [candidates[index] as { documentId: string; text: string }]),
          abortSignal,
        );
        singles.forEach((outcome, position) => {
          const index = reask[position] as number;
          const candidate = candidates[index] as { documentId: string };
          usage = addUsage(usage, outcome.provenance.usage);
          if (outcome.status === 'failed') {
            calls.push({ documentIds: [candidate.documentId], status: 'failed', analysis: '', raw: '', problems: outcome.problems, provenance: outcome.provenance, reasked: true });
            problems[index]!.push(...outcome.problems);
            return;
          }
          const parsed = outcome.value ?? parseSupportScores(outcome.raw[0] ?? '', 1);
          calls.push({ documentIds: [candidate.documentId], status: 'ok', analysis: parsed.analysis, raw: outcome.raw[0] ?? '', problems: parsed.problems, provenance: outcome.provenance, reasked: true });
          const score = parsed.scores[0];
          if (score === 0 || score === 1) supports[index] = score === 1;
          else problems[index]!.push(...parsed.problems);
        });
      }
      const judgements: SupportJudgement[] = candidates.map((candidate, index) => supportJudgement(candidate.documentId, supports[index] ?? undefined, problems[index]!));
      return { judgements, calls, usage };
    },
  };
}
