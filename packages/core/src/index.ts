// Types
export type { Document, DocumentSource } from './document.js';
export type { Chunk } from './chunk.js';
export type { Usage } from './usage.js';
export { EMPTY_USAGE, addUsage } from './usage.js';
export type { Query, WeightedTerm, ExpandedQuery, FeedbackProvenance, SearchQuery, ItemProblem } from './query.js';
export type { GenerationProvenance, GenerationSampling } from './provenance.js';
export type { Claim, ClaimLabel } from './claim.js';
export type { Evidence, EvidenceOrigin } from './evidence.js';
export { evidenceOrigin } from './evidence.js';
export type { Qrels, Run } from './qrels.js';

// Interfaces
export type { ChatMessage, GenerateRequest, GenerateResult, GenerateStreamPart, LanguageModel } from './language-model.js';
export type { Embedder, EmbeddingKind, EmbedRequest, EmbedResult } from './embedder.js';
export type { NliLabel, NliModel, NliPair, NliPrediction, NliRequest, NliResult } from './nli-model.js';
export { NLI_LABELS } from './nli-model.js';
export type { Retriever, RetrieveRequest, RetrieveResult } from './retriever.js';
export type { Reranker, RerankRequest, RerankResult } from './reranker.js';
export type { FieldedDocument, RetrieverFactory, RetrieverFactoryRequest } from './retriever-factory.js';
export type { VectorMatch, VectorQueryRequest, VectorRecord, VectorStore } from './vector-store.js';
export type { Cache } from './cache.js';
export type { ExpandRequest, QueryExpander } from './query-expander.js';

// Errors
export type { FactkitErrorCode } from './errors/factkit-error.js';
export {
  CorruptDataError,
  FactkitError,
  InvalidArgumentError,
  ProviderCallError,
  ResponseParseError,
  isAbortReason,
  isRetryableStatus,
  redactSecrets,
  throwIfAborted,
} from './errors/factkit-error.js';
export {
  assertFiniteNumber,
  assertIntegerInRange,
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertNonNegativeNumber,
  assertPositiveInteger,
  assertProbability,
} from './errors/guards.js';

// Per-item outcomes and progress
export type { ItemFailed, ItemOk, ItemOutcome } from './outcome/item-outcome.js';
export { countFailed, itemFailed, itemOk } from './outcome/item-outcome.js';
export type { Progress, ProgressCallback } from './outcome/progress.js';
export type { CoreProblemCode } from './outcome/core-problem-code.js';

// Text
export type { SentenceProfile, SentenceSpan, SplitSentencesOptions } from './text/sentences.js';
export { segmentSentences, splitSentences } from './text/sentences.js';
export type { TokenizeOptions } from './text/tokenize.js';
export { hasCjk, tokenizeWords } from './text/tokenize.js';
export { LUCENE_ENGLISH_STOP_WORDS } from './text/stop-words.js';

// Vectors
export type { NumericVector } from './vector/vector-math.js';
export { cosineSimilarity, dotProduct, l2Norm, normalizeL2 } from './vector/vector-math.js';

// Randomness
export { createSeededRandom } from './random/seeded-random.js';
export { compileOnce, decodeBase64 } from './wasm/wasm-module.js';

// Prompts
export type { PromptTemplate, PromptTemplateOptions } from './prompt/prompt-template.js';
export { createPromptTemplate, renderPrompt } from './prompt/prompt-template.js';

// LLM steps: run a prompted step over a batch, parse replies
export type { ParseOutcome, PromptedStepOptions, ReplyParser, StepItem, StepProblemCode } from './step/run-prompted-step.js';
export { runPromptedStep } from './step/run-prompted-step.js';
export type { LabelParse, LabelParseOptions, LabelParser, LabelProblemCode } from './parse/parse-label.js';
export { createLabelParser, parseLabel } from './parse/parse-label.js';
export { isRefusal } from './parse/is-refusal.js';
export type { ListItemsProblemCode, ParsedListItems } from './parse/parse-list-items.js';
export { parseListItems } from './parse/parse-list-items.js';
export { stripCodeFences } from './parse/reply-text.js';
export type { JsonLineProblem, JsonLineProblemCode, JsonLineRead, ParseJsonLinesOptions, ParsedJsonLines } from './parse/json-lines.js';
export { decodeTextFile, parseJsonLines } from './parse/json-lines.js';

// LLM plumbing
export { sha256Hex, stableStringify } from './llm/stable-hash.js';
export { createMemoryCache } from './llm/cache-stores.js';
export type { WithCacheOptions } from './llm/with-cache.js';
export { withCache, withEmbeddingCache } from './llm/with-cache.js';
export type { RetryOptions } from './llm/with-retry.js';
export { withEmbeddingRetry, withRetry } from './llm/with-retry.js';
export { abortableDelay } from './llm/abortable-delay.js';
export { linkAbort } from './llm/abort-link.js';
export type { ConcurrencyOptions, Settled } from './llm/concurrency.js';
export { mapWithConcurrency, settleWithConcurrency } from './llm/concurrency.js';
export type { EmbedInBatchesOptions } from './llm/embed-in-batches.js';
export { embedInBatches } from './llm/embed-in-batches.js';
export { checkEmbedTexts } from './llm/check-embed-texts.js';
export type { TokenPrices, UsageMeter, UsageReport } from './llm/usage-meter.js';
export { createUsageMeter } from './llm/usage-meter.js';
