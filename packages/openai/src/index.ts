export type { OpenAICompatibleProvider } from './openai-compatible-provider.js';
export { createOpenAICompatible } from './openai-compatible-provider.js';
export type {
  OpenAICompatibleEmbeddingOptions,
  OpenAICompatibleGenerateDefaults,
  OpenAICompatibleLanguageModelOptions,
  OpenAICompatibleSettings,
} from './openai-compatible-settings.js';
// Deprecated since 0.2, removed in the next minor:
export type { OpenAICompatibleConnectionOptions, OpenAICompatibleEmbedderOptions, OpenAICompatibleModelOptions } from './deprecated.js';
export { createOpenAICompatibleEmbedder, createOpenAICompatibleModel } from './deprecated.js';
