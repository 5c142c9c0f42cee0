// Contract suites (one per core interface) and test servers. Private package: used by factkit's own tests.
export type { QueryExpanderContractOptions } from './query-expander-contract.js';
export { describeQueryExpanderContract } from './query-expander-contract.js';
export type { LanguageModelContractOptions, RetrieverContractOptions } from './contracts.js';
export {
  describeCacheContract,
  describeEmbedderContract,
  describeLanguageModelContract,
  describeNliModelContract,
  describeRetrieverContract,
  describeVectorStoreContract,
} from './contracts.js';
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
