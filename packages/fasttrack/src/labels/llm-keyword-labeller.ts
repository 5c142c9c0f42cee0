import { createPromptTemplate, InvalidArgumentError, runPromptedStep, type LanguageModel } from '@factkit/core';
import { KEYWORD_PROMPT, renderClusterTexts } from '../prompts.js';
import type { ClusterLabel, KeywordLabeller, LabelCluster, LabelRequest } from './keyword-labeller.js';
import { parseKeywords } from './parse-keywords.js';
import type { FastTrackProblemCode } from '../problem-codes.js';

export interface LlmKeywordLabellerOptions {
  /** Wrap it with core `withCache` (resumable runs) and `withRetry`. */
  readonly model: LanguageModel;
  /** Prompt with a `{{clusterTexts}}` placeholder. @default FASTTRACK_PROMPTS.keyword (paper Fig. 3) */
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
 * The paper's keyword labeller (Fig. 3): one LLM call per leaf with the leaf's texts (core `runPromptedStep`), reply
 * parsed by `parseKeywords`. A failed call gives `status: 'failed'` and no keywords (the leaf stays unlabelled).
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
      const targets = (request.targets ?? clusters.map((_, index) => index)).map((target) => {
        const cluster = clusters[target];
        if (!cluster) throw new InvalidArgumentError({ where: 'KeywordLabeller.label', argument: 'targets', message: `holds ${String(target)}, not a cluster position` });
        return cluster;
      });
      const items = await runPromptedStep<LabelCluster, string[], FastTrackProblemCode>(targets, {
        step: 'fasttrack.keywords',
        model,
        template: prompt,
        variables: (cluster) => {
          const kept: string[] = [];
          let used = 0;
          for (const text of cluster.texts) {
            if (kept.length > 0 && used + text.length > maxClusterChars) break;
            kept.push(text);
            used += text.length + 1;
          }
          return { clusterTexts: renderClusterTexts(kept) };
        },
        parse: (reply) => {
          const parsed = parseKeywords(reply);
          return { value: parsed.keywords, problems: parsed.problems.map((problem) => ({ ...problem, raw: problem.raw ?? reply.slice(0, 300) })) };
        },
        temperature,
        maxTokens,
        concurrency,
        ...(abortSignal ? { abortSignal } : {}),
        ...(onProgress ? { onProgress } : {}),
      });
      return items.map((item, position) => ({
        leafId: (targets[position] as LabelCluster).leafId,
        status: item.status,
        keywords: item.status === 'ok' ? (item.value ?? []) : [],
        problems: item.problems,
        provenance: item.provenance,
      }));
    },
  };
}
