// @factkit/core/node: the Node-only part of core (file system). The main entry `@factkit/core` imports no Node
// built-in and runs in browsers (tooling/check-browser-entries.mjs checks it). Explicit named exports only.
export type { FileCacheOptions } from './llm/file-cache.js';
export { createFileCache } from './llm/file-cache.js';
export { readTextFile } from './io/read-text-file.js';
