export type { OpenAICompatibleProvider } from './openai-compatible-provider.js';
export { createOpenAICompatible } from './openai-compatible-provider.js';
export { urlWithoutCredentials } from './internal/client-config.js';
export type {
  OpenAICompatibleEmbeddingOptions,
  OpenAICompatibleGenerateDefaults,
  OpenAICompatibleLanguageModelOptions,
  OpenAICompatibleSettings,
} from './openai-compatible-settings.js';
