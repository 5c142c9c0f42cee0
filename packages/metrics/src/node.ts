// @factkit/metrics/node: the Node-only part of metrics (file system). The main entry `@factkit/metrics` imports no
// Node built-in and runs in browsers (tooling/check-browser-entries.mjs checks it). Explicit named exports only.
export { readQrelsFile, readRunFile, writeTrecQrelsFile, writeTrecRunFile } from './ir/trec-files.js';
export type { LoadWordNetSynonymsOptions } from './text/load-wordnet-synonyms.js';
export { loadWordNetSynonyms } from './text/load-wordnet-synonyms.js';
