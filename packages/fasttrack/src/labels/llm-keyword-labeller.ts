import { createPromptTemplate, InvalidArgumentError, type LanguageModel } from '@factkit/core';
import { runPromptCalls } from '../internal/run-step.js';
import { KEYWORD_PROMPT, renderClusterTexts } from '../prompts.js';
import type { ClusterLabel, KeywordLabeller, LabelRequest } from './keyword-labeller.js';
import { parseKeywords } from './parse-keywords.js';

export interface LlmKeywordLabellerOptions {
  /** Wrap it with core `withCache` (resumable runs) and `withRetry`. */
  readonly model: LanguageModel;
  /** Prompt with a `{{clusterTexts}}` placeholder. @default KEYWORD_PROMPT (paper Fig. 3) */
  readonly template?: string;
  /** @default 0 (paper, Appendix E) */
  readonly temperature?: number;
  /** @default 256 (paper, Appendix E) */
  readonly maxTokens?: number;
  /** Characters of cluster text sent at most (texts are cut at a whole text). @default 24000 */
  readonly maxClusterChars?: number;
  /** @default 4 */
  readonly concurrency?: number;
}

/**
 * The paper's keyword labeller (Fig. 3): one LLM call per leaf with the leaf's texts, reply parsed by
 * `parseKeywords`. A failed call gives `status: 'failed'` and no keywords (the leaf stays unlabelled).
 * @throws InvalidArgumentError when the template lacks `{{clusterTexts}}`.
 */
export function createLlmKeywordLabeller(options: LlmKeywordLabellerOptions): KeywordLabeller {
  const { model, template = KEYWORD_PROMPT, temperature = 0, maxTokens = 256, maxClusterChars = 24_000, concurrency = 4 } = options;
  const prompt = createPromptTemplate(template);
  if (!prompt.variables.includes('clusterTexts')) throw new InvalidArgumentError({ where: 'createLlmKeywordLabeller', argument: 'template', message: 'must contain {{clusterTexts}}' });
  return {
    id: `llm(${model.id})`,
    async label(request: LabelRequest): Promise<ClusterLabel[]> {
      const { clusters, abortSignal, onProgress } = request;
      const targets = request.targets ?? clusters.map((_, index) => index);
      const calls = targets.map((target) => {
        const cluster = clusters[target];
        if (!cluster) throw new InvalidArgumentError({ where: 'KeywordLabeller.label', argument: 'targets', message: `holds ${String(target)}, not a cluster position` });
        const kept: string[] = [];
        let used = 0;
        for (const text of cluster.texts) {
          if (kept.length > 0 && used + text.length > maxClusterChars) break;
          kept.push(text);
          used += text.length + 1;
        }
        return { prompt: prompt.render({ clusterTexts: renderClusterTexts(kept) }) };
      });
      let done = 0;
      let failed = 0;
      const outcomes = await runPromptCalls(calls, {
        step: 'fasttrack.keywords',
        model,
        temperature,
        maxTokens,
        concurrency,
        ...(abortSignal ? { abortSignal } : {}),
        onDone: (outcome) => {
          done++;
          if (outcome.status === 'failed') failed++;
          onProgress?.({ done, total: calls.length, failed });
        },
      });
      return outcomes.map((outcome, position) => {
        const leafId = (clusters[targets[position] as number] as { leafId: number }).leafId;
        if (outcome.status === 'failed') return { leafId, status: 'failed', keywords: [], problems: outcome.problems, provenance: outcome.provenance };
        const parsed = parseKeywords(outcome.text);
        return { leafId, status: 'ok', keywords: parsed.keywords, problems: parsed.problems.map((problem) => ({ ...problem, raw: problem.raw ?? outcome.text.slice(0, 300) })), provenance: outcome.provenance };
      });
    },
  };
}
