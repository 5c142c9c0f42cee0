import type { ClaimVerifier, NliAggregation } from '@factkit/claim-query';
import { createLlmVerifier, createNliVerifier, DEFAULT_NLI_AGGREGATION } from '@factkit/claim-query';
import { InvalidArgumentError, type NliModel } from '@factkit/core';
import { createFeatureNliModel, createLexicalNliModel, GLOVE_USE_LITE_NLI_WEIGHTS } from '@factkit/nli-models';
import { createTransformersNliModel } from '@factkit/transformers';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { type Endpoint, connectLanguageModel } from '../endpoint.js';

/** The verifiers `factkit check --nli` knows. */
export const CHECK_NLI_SPECS = 'feature | feature-use | lexical | transformers:<dir> | llm';

/**
 * The offline verifier `factkit check` uses without `--nli`: the GloVe/WordNet feature classifier of @factkit/nli-models,
 * the best offline model the project ships by sentence balanced accuracy on the FEVER-lite validation responses
 * (0.702; `feature-use`, GloVe + USE-lite, 0.695 but better hallucination F1 and response accuracy, and about 16× slower;
 * docs/claim-query.md).
 */
export const DEFAULT_CHECK_NLI = 'feature';

/** `--aggregate` choices: the default, RefChecker's three names, and the pre-relevance rule (for comparison); each documented at `NliAggregation`. */
export const CHECK_AGGREGATIONS: readonly NliAggregation[] = ['top-decisive', 'strict', 'soft', 'majority', 'decisive-majority'];

export interface CheckVerifierOptions {
  /** `feature`, `lexical`, `transformers:<dir>` or `llm`. @default 'llm' with an endpoint, else DEFAULT_CHECK_NLI */
  readonly nli?: string;
  /** How the NLI labels of a claim's snippets become its label (NLI verifiers only). @default DEFAULT_NLI_AGGREGATION */
  readonly aggregation?: NliAggregation;
  /** Snippets judged per claim. @default 10 */
  readonly topSnippets?: number;
  /** The endpoint and verifier model, for `llm`. */
  readonly endpoint?: Endpoint;
  readonly verifierModel?: string;
  /** One-line notices (the default verifier falling back to lexical when @factkit/glove is not installed). */
  readonly onStatus?: (message: string) => void;
}

const WHERE = 'factkit check';

async function featureModel(explicit: boolean, onStatus?: (message: string) => void, withUse = false): Promise<NliModel> {
  let glove: typeof import('@factkit/glove');
  try {
    glove = await import('@factkit/glove');
  } catch (cause) {
    // GloVe's vectors are 294 MB, so @factkit/glove is optional (as for `factkit index --embedder glove`).
    if (explicit)
      throw new InvalidArgumentError({
        where: WHERE,
        argument: '--nli',
        message: `${withUse ? 'feature-use' : 'feature'} needs the optional package @factkit/glove (npm i @factkit/glove; its vectors are 294 MB), or use --nli lexical`,
        cause,
      });
    onStatus?.('the feature NLI verifier needs @factkit/glove (npm i @factkit/glove); using the weaker lexical verifier (--nli lexical)');
    return createLexicalNliModel();
  }
  const embedder = glove.createGloveEmbedder();
  return withUse ? createFeatureNliModel({ embedder, sentenceEmbedder: createUseLiteEmbedder(), weights: GLOVE_USE_LITE_NLI_WEIGHTS }) : createFeatureNliModel({ embedder });
}

/**
 * The claim verifier `factkit check` runs: an NLI verifier (`feature`, `lexical`, or a local transformers.js NLI model
 * from a folder) with the chosen aggregation, or `llm`: the paper's LLM verifier on the endpoint over the top-10
 * snippets, Irrelevant → unverifiable (JointCQ's rules; `aggregation` does not apply).
 * @throws InvalidArgumentError naming `--nli` / `--aggregate` / `--base-url` for an unknown spec, a missing package or endpoint.
 */
export async function createCheckVerifier(options: CheckVerifierOptions): Promise<ClaimVerifier> {
  const { endpoint, topSnippets = 10, onStatus } = options;
  const spec = options.nli ?? (endpoint ? 'llm' : DEFAULT_CHECK_NLI);
  if (options.aggregation !== undefined && !CHECK_AGGREGATIONS.includes(options.aggregation)) {
    throw new InvalidArgumentError({ where: WHERE, argument: '--aggregate', message: `must be one of ${CHECK_AGGREGATIONS.join(', ')} (got "${options.aggregation}")` });
  }
  if (spec === 'llm') {
    if (!endpoint) throw new InvalidArgumentError({ where: WHERE, argument: '--base-url', message: 'is needed for --nli llm (with --model; or set OPENAI_BASE_URL and FACTKIT_MODEL)' });
    if (options.aggregation !== undefined) throw new InvalidArgumentError({ where: WHERE, argument: '--aggregate', message: 'applies to NLI verifiers only; --nli llm judges the top-10 snippets together (JointCQ)' });
    return createLlmVerifier({ model: connectLanguageModel(endpoint, 'check', options.verifierModel) });
  }
  let nli: NliModel;
  if (spec === 'feature') nli = await featureModel(options.nli !== undefined, onStatus);
  else if (spec === 'feature-use') nli = await featureModel(true, onStatus, true);
  else if (spec === 'lexical') nli = createLexicalNliModel();
  else if (spec.startsWith('transformers:') && spec.length > 'transformers:'.length) {
    try {
      nli = createTransformersNliModel({ modelPath: spec.slice('transformers:'.length) });
    } catch (cause) {
      if (!(cause instanceof InvalidArgumentError)) throw cause;
      throw new InvalidArgumentError({ where: WHERE, argument: '--nli', message: `${spec}: ${cause.message}`, cause });
    }
  } else throw new InvalidArgumentError({ where: WHERE, argument: '--nli', message: `must be one of ${CHECK_NLI_SPECS} (got "${spec}")` });
  return createNliVerifier({ nli, topSnippets, aggregation: options.aggregation ?? DEFAULT_NLI_AGGREGATION });
}
