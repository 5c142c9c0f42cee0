import { assertPositiveInteger, type ExpandedQuery, InvalidArgumentError, type ItemProblem, type LanguageModel, type QueryExpander } from '@factkit/core';
import { buildExpandedQuery, generateForRequest, prepareGeneration, usableGenerations, type ExpanderSamplingOptions, type GenerationSetup } from './internal/generate.js';
import type { ExpansionProblemCode } from './problem-codes.js';
import { QUERY2DOC_PROMPT } from './prompts.js';

export interface Query2docExpanderOptions extends ExpanderSamplingOptions {
  /** The model that writes the pseudo-document. Wrap it with core `withCache` to make reruns free. */
  readonly model: LanguageModel;
  /** Prompt with a `{{query}}` placeholder. @default EXPANSION_PROMPTS.query2doc (knowledge-leakage paper, Figure A1d) */
  readonly prompt?: string;
  /** Values for any other placeholders of `prompt`. @default {} */
  readonly promptVariables?: Readonly<Record<string, string>>;
  /** Copies of the query before the passage in the sparse form (Equation 1, n = 5 after Jagerman et al. 2023). @default 5 */
  readonly repeats?: number;
  /**
   * `'sparse'`: q repeated `repeats` times then d, for BM25. `'dense'`: `q [SEP] d`, for dense retrievers
   * (Wang et al. 2023). @default 'sparse'
   */
  readonly form?: 'sparse' | 'dense';
  /** Separator of the dense form. @default '[SEP]' */
  readonly separator?: string;
  /** Pseudo-documents per query; usable ones are concatenated. @default 1 */
  readonly n?: number;
  /**
   * Also use generations flagged as empty, refusal or wrong-language. They are always kept in `generations` and
   * `problems`; by default they are left out of the expanded query text. @default false
   */
  readonly keepFlagged?: boolean;
}

/**
 * Query2doc (Wang et al. 2023): an LLM writes a passage d for query q and the expanded query is
 * `concat(q × n, d)` for BM25, or `q [SEP] d` for a dense retriever.
 * @throws InvalidArgumentError for a missing model or out-of-range option.
 * @example
 * const expander = createQuery2docExpander({ model });
 * const expanded = await expander.expand({ query: { text: 'Aspirin lowers fever.' } });
 */
export function createQuery2docExpander(options: Query2docExpanderOptions): QueryExpander {
  const where = 'createQuery2docExpander';
  const {
    model,
    prompt = QUERY2DOC_PROMPT,
    promptVariables = {},
    system,
    repeats = 5,
    form = 'sparse',
    separator = '[SEP]',
    n = 1,
    temperature = 0.7,
    topP = 1.0,
    maxTokens = 512,
    keepFlagged = false,
  } = options ?? ({} as Query2docExpanderOptions);
  const template = prepareGeneration({ where, model, prompt, promptVariables, temperature, topP, maxTokens, n });
  assertPositiveInteger('repeats', repeats, where);
  if (form !== 'sparse' && form !== 'dense') {
    throw new InvalidArgumentError({ where, argument: 'form', message: `must be 'sparse' or 'dense' (got ${String(form)})` });
  }
  const setup: GenerationSetup = { step: 'query2doc', model, template, promptVariables, system, sampling: { temperature, topP, maxTokens, n } };
  return {
    id: `query2doc(${model.id})`,
    usesLanguageModel: true,
    async expand(request): Promise<ExpandedQuery> {
      const step = await generateForRequest('Query2docExpander.expand', request, setup);
      const { query } = request;
      const usable = usableGenerations(step.parsed, keepFlagged);
      const problems: ItemProblem<ExpansionProblemCode>[] = [...step.problems];
      let text: string;
      if (usable.length === 0) {
        text = query.text;
        problems.push({ code: 'no-usable-generation', message: 'no generation could be used; the expanded query is the original query' });
      } else if (form === 'sparse') {
        text = [...Array.from({ length: repeats }, () => query.text), ...usable].join(' ');
      } else {
        text = `${query.text} ${separator} ${usable.join(' ')}`;
      }
      return buildExpandedQuery({
        step,
        query,
        text,
        metadata: query.metadata,
        generations: step.parsed.map((entry) => entry.text),
        problems,
      });
    },
  };
}
