// Node entry `@factkit/test-utils/data`: the data-root helper without vitest, for examples and benches.
export type { DataRootOptions, DatasetInfo, DatasetName } from './data-root.js';
export { DATA_ROOT_VARIABLE, DATASETS, dataset, datasetArgument, findDataRoot, findRepositoryRoot, isCi, MissingDatasetError, missingDatasetMessage, requireDataset } from './data-root.js';
