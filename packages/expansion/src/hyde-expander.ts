import { assertNonNegativeNumber, CorruptDataError, InvalidArgumentError, normalizeL2, type Embedder, type EmbeddingKind, type ExpandedQuery, type ItemProblem, type LanguageModel, type QueryExpander } from '@factkit/core';
import type { ExpansionProblemCode } from './problem-codes.js';
import { buildExpandedQuery, generateForRequest, prepareGeneration, usableGenerations, type ExpanderSamplingOptions, type GenerationSetup } from './internal/generate.js';
import { HYDE_WEB_SEARCH_PROMPT } from './prompts.js';

export interface HydeExpanderOptions extends ExpanderSamplingOptions {
  /** The model that writes the hypothetical documents. Wrap it with core `withCache` to make reruns free. */
  readonly model: LanguageModel;
  /** Encodes the query and the documents (the paper used Contriever). */
  readonly embedder: Embedder;
  /**
   * Prompt with a `{{query}}` placeholder; see `EXPANSION_PROMPTS.hyde` for the paper's FEVER / SciFact / AVeriTeC prompts and
   * the original HyDE task prompts. @default EXPANSION_PROMPTS.hyde['web-search']
   */
  readonly prompt?: string;
  /** Values for other placeholders, e.g. `{ language: 'Swahili' }` for the Mr.TyDi prompt. @default {} */
  readonly promptVariables?: Readonly<Record<string, string>>;
  /** Hypothetical documents per query, N in Equation 2 (the paper used 1; original HyDE 8). @default 1 */
  readonly n?: number;
  /** Average the query's own embedding in with the documents' (Equation 2). @default true */
  readonly includeQuery?: boolean;
  /** Weight of the query embedding relative to each document's (1 = Equation 2). Ignored when `includeQuery` is false. @default 1 */
  readonly queryWeight?: number;
  /** Embedding kind used for the generated documents. @default 'passage' */
  readonly documentKind?: EmbeddingKind;
  /** L2-normalize the final vector. @default false (HyDE uses the plain mean) */
  readonly normalize?: boolean;
  /** Also use generations flagged as empty, refusal or wrong-language (always kept in `problems`). @default false */
  readonly keepFlagged?: boolean;
}

/**
 * Computes `(w·q + Σ d_k) / (w + N)` for query vector q, document vectors d_1..d_N and query weight w: Equation 2
 * of the knowledge-leakage paper when w = 1, the documents' mean when w = 0.
 * @throws InvalidArgumentError when vectors differ in length, or when there is nothing to average.
 */
export function combineHydeVectors(queryVector: Float32Array | undefined, documentVectors: readonly Float32Array[], options: { queryWeight?: number } = {}): Float32Array {
  const where = 'combineHydeVectors';
  const { queryWeight = 1 } = options;
  assertNonNegativeNumber('queryWeight', queryWeight, where);
  const weight = queryVector === undefined ? 0 : queryWeight;
  const total = weight + documentVectors.length;
  if (total <= 0) throw new InvalidArgumentError({ where, argument: 'documentVectors', message: 'is empty and the query has weight 0' });
  const dimensions = queryVector?.length ?? (documentVectors[0] as Float32Array).length;
  const sum = new Float64Array(dimensions);
  const add = (vector: Float32Array, scale: number, name: string) => {
    if (vector.length !== dimensions) {
      throw new InvalidArgumentError({ where, argument: name, message: `has ${vector.length} dimensions, expected ${dimensions}` });
    }
    for (let i = 0; i < dimensions; i += 1) sum[i] = (sum[i] as number) + scale * (vector[i] as number);
  };
  if (queryVector !== undefined && weight > 0) add(queryVector, weight, 'queryVector');
  documentVectors.forEach((vector, index) => add(vector, 1, `documentVectors[${index}]`));
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i += 1) out[i] = (sum[i] as number) / total;
  return out;
}

function checkVectors(embedder: Embedder, vectors: readonly Float32Array[] | undefined, expected: number): Float32Array[] {
  if (!Array.isArray(vectors) || vectors.length !== expected) {
    throw new CorruptDataError({ source: embedder.id, message: `embed() returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${expected} texts` });
  }
  for (const vector of vectors) {
    if (!(vector instanceof Float32Array) || vector.length !== embedder.dimensions || vector.some((value) => !Number.isFinite(value))) {
      throw new CorruptDataError({ source: embedder.id, message: `embed() returned a vector that is not ${embedder.dimensions} finite numbers` });
    }
  }
  return vectors;
}

/**
 * HyDE (Gao et al. 2023): an LLM writes N hypothetical documents for the query; the query vector is the mean of the
 * query's embedding and the documents' embeddings (Equation 2). Returns an ExpandedQuery whose `vector` dense
 * retrievers use; `text` stays the original query.
 * @throws InvalidArgumentError for a missing model/embedder or out-of-range option.
 * @example
 * const expander = createHydeExpander({ model, embedder, prompt: EXPANSION_PROMPTS.hyde.scifact });
 * const { vector } = await expander.expand({ query: { text: 'Aspirin lowers fever.' } });
 */
export function createHydeExpander(options: HydeExpanderOptions): QueryExpander {
  const where = 'createHydeExpander';
  const {
    model,
    embedder,
    prompt = HYDE_WEB_SEARCH_PROMPT,
    promptVariables = {},
    system,
    n = 1,
    temperature = 0.7,
    topP = 1.0,
    maxTokens = 512,
    includeQuery = true,
    queryWeight = 1,
    documentKind = 'passage',
    normalize = false,
    keepFlagged = false,
  } = options ?? ({} as HydeExpanderOptions);
  const template = prepareGeneration({ where, model, prompt, promptVariables, temperature, topP, maxTokens, n });
  if (!embedder || typeof embedder.embed !== 'function') {
    throw new InvalidArgumentError({ where, argument: 'embedder', message: 'must be an Embedder (an object with embed())' });
  }
  assertNonNegativeNumber('queryWeight', queryWeight, where);
  if (documentKind !== 'passage' && documentKind !== 'query') {
    throw new InvalidArgumentError({ where, argument: 'documentKind', message: `must be 'passage' or 'query' (got ${String(documentKind)})` });
  }
  const weight = includeQuery ? queryWeight : 0;
  const setup: GenerationSetup = { step: 'hyde', model, template, promptVariables, system, sampling: { temperature, topP, maxTokens, n } };
  return {
    id: `hyde(${model.id},${embedder.id})`,
    usesLanguageModel: true,
    async expand(request): Promise<ExpandedQuery> {
      const step = await generateForRequest('HydeExpander.expand', request, setup);
      const { query, abortSignal } = request;
      const usable = usableGenerations(step.parsed, keepFlagged);
      const problems: ItemProblem<ExpansionProblemCode>[] = [...step.problems];
      const needQuery = weight > 0 || usable.length === 0;
      abortSignal?.throwIfAborted();
      const [queryResult, documentResult] = await Promise.all([
        needQuery ? embedder.embed({ texts: [query.text], kind: 'query', ...(abortSignal ? { abortSignal } : {}) }) : undefined,
        usable.length > 0 ? embedder.embed({ texts: usable, kind: documentKind, ...(abortSignal ? { abortSignal } : {}) }) : undefined,
      ]);
      const queryVector = queryResult ? checkVectors(embedder, queryResult.embeddings, 1)[0] : undefined;
      const documentVectors = documentResult ? checkVectors(embedder, documentResult.embeddings, usable.length) : [];
      let vector: Float32Array;
      if (usable.length === 0) {
        vector = Float32Array.from(queryVector as Float32Array);
        problems.push({ code: 'no-usable-generation', message: 'no generation could be used; the query vector is the embedding of the query alone' });
      } else {
        vector = combineHydeVectors(weight > 0 ? queryVector : undefined, documentVectors, { queryWeight: weight });
      }
      if (normalize) vector = normalizeL2(vector);
      return buildExpandedQuery({
        step,
        query,
        text: query.text,
        vector,
        metadata: query.metadata,
        generations: step.parsed.map((entry) => entry.text),
        problems,
      });
    },
  };
}
