/** Connection settings of {@link createOpenAICompatible}: given once, shared by every model the provider makes. */
export interface OpenAICompatibleSettings {
  /**
   * Base URL including `/v1`. Falls back to `OPENAI_BASE_URL` (read when the provider is created).
   * @default 'https://api.openai.com/v1'
   */
  readonly baseURL?: string;
  /**
   * API key, read at call time: this setting, else `OPENAI_API_KEY` as it is when the call is made. Required for
   * api.openai.com and *.openai.azure.com; other hosts (local Ollama, vLLM, llama.cpp server, LM Studio) get a
   * placeholder bearer token when no key is set. A missing key never fails provider creation, only a call.
   */
  readonly apiKey?: string;
  /** OpenAI organization id (header `OpenAI-Organization`). */
  readonly organization?: string;
  /** OpenAI project id (header `OpenAI-Project`). */
  readonly project?: string;
  /** Extra headers sent with every request (values of auth-like headers are redacted from errors). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A fetch implementation to use instead of the global one (proxies, tests). */
  readonly fetch?: typeof globalThis.fetch;
  /** Time limit of one HTTP call, in ms; a call over it fails with a retryable `timeout` error. @default 120000 */
  readonly timeout?: number;
}

/** Generation settings used when a request leaves them unset. */
export interface OpenAICompatibleGenerateDefaults {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  readonly stop?: readonly string[];
  readonly seed?: number;
}

/** Per-model options of `provider.languageModel(modelId, options)`. */
export interface OpenAICompatibleLanguageModelOptions {
  /** Defaults for requests that leave these unset. @default {} (the server's defaults) */
  readonly defaults?: OpenAICompatibleGenerateDefaults;
  /**
   * Body field that carries `maxTokens`. Newer OpenAI models (o-series, gpt-5) want 'max_completion_tokens';
   * most local servers know 'max_tokens'. @default 'max_tokens'
   */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * Answer `n > 1` with n separate single-completion calls (call i uses `seed + i` when a seed is set), for servers
   * that ignore `n` (Ollama). Without it, a reply with fewer choices than `n` is a ResponseParseError. @default false
   */
  readonly emulateN?: boolean;
  /** Ask for usage in streams (`stream_options.include_usage`); turn off for servers that reject it. @default true */
  readonly streamUsage?: boolean;
  /** Overrides the model id used in logs and cache keys. @default `openai-compatible:<modelId>` */
  readonly id?: string;
}

/** Per-model options of `provider.embedder(modelId, options)`. */
export interface OpenAICompatibleEmbeddingOptions {
  /**
   * Length of every vector; responses of another length are rejected. Required except for OpenAI's own models
   * (text-embedding-3-small: 1536, text-embedding-3-large: 3072, text-embedding-ada-002: 1536).
   */
  readonly dimensions?: number;
  /**
   * Also send `dimensions` in the request, asking the server to shorten vectors (OpenAI text-embedding-3 models
   * only; most local servers reject or ignore it). @default false
   */
  readonly requestDimensions?: boolean;
  /** Texts per HTTP request; `embed` splits larger batches. @default 256 */
  readonly maxBatchSize?: number;
  /** Declare that vectors are L2-normalized. @default true for OpenAI's own models, else false */
  readonly normalized?: boolean;
  /** Prepended to query texts (E5: 'query: '). @default '' */
  readonly queryPrefix?: string;
  /** Prepended to passage texts (E5: 'passage: '). @default '' */
  readonly passagePrefix?: string;
  /** Overrides the embedder id used in logs and cache keys. @default `openai-compatible:<modelId>` */
  readonly id?: string;
}
