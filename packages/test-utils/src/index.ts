// Test helpers of factkit's own tests (private). The contract suites are public in @factkit/core/contracts and
// re-exported here so factkit's tests import them from one place; the scripted OpenAI server stays here.
export type { LanguageModelContractOptions, NliModelContractOptions, QueryExpanderContractOptions, RerankerContractOptions, RetrieverContractOptions } from '@factkit/core/contracts';
export {
  describeCacheContract,
  describeEmbedderContract,
  describeLanguageModelContract,
  describeNliModelContract,
  describeQueryExpanderContract,
  describeRerankerContract,
  describeRetrieverContract,
  describeVectorStoreContract,
} from '@factkit/core/contracts';
export type {
  ScriptedContentReply,
  ScriptedDelayReply,
  ScriptedDropReply,
  ScriptedEmbeddingsReply,
  ScriptedHandler,
  ScriptedMalformedReply,
  ScriptedOpenAIServer,
  ScriptedOpenAIServerOptions,
  ScriptedReply,
  ScriptedReplyBase,
  ScriptedRequest,
  ScriptedStatusReply,
} from './openai-server.js';
export { startScriptedOpenAIServer } from './openai-server.js';
export type { DataRootOptions, DatasetInfo, DatasetName } from './data-root.js';
export { DATA_ROOT_VARIABLE, DATASETS, dataset, datasetArgument, findDataRoot, findRepositoryRoot, isCi, MissingDatasetError, missingDatasetMessage, requireDataset } from './data-root.js';
export { DATA_TAG_PREFIX, dataTag, describeWithData, NO_DATA_TAG_PREFIX } from './data-tests.js';
export type { ProblemCodeComparison } from './problem-codes.js';
export { compareProblemCodes } from './problem-codes.js';
