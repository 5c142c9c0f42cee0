import { EMPTY_USAGE, InvalidArgumentError, ResponseParseError } from '@factkit/core';
import type { GenerateRequest, GenerateResult, GenerateStreamPart, LanguageModel, Usage } from '@factkit/core';
import type { OpenAICompatibleGenerateDefaults, OpenAICompatibleLanguageModelOptions } from '../openai-compatible-settings.js';
import { callOnce, toFactkitError } from './call-once.js';
import { PROVIDER } from './client-config.js';
import type { Connection, ResolvedConnection } from './client-config.js';
import { parseChatCompletionBody, readStreamChunk } from './parse-responses.js';

interface ChatMessageBody {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

function validateSettings(where: string, settings: OpenAICompatibleGenerateDefaults & { n?: number }, prefix: string): void {
  const fail = (name: string, rule: string, value: unknown): never => {
    throw new InvalidArgumentError({ where, argument: `${prefix}${name}`, message: `${rule} (got ${String(value)})` });
  };
  const { temperature, topP, maxTokens, seed, stop, n } = settings;
  if (temperature !== undefined && !(typeof temperature === 'number' && temperature >= 0 && temperature <= 2)) fail('temperature', 'must be a number in [0, 2]', temperature);
  if (topP !== undefined && !(typeof topP === 'number' && topP > 0 && topP <= 1)) fail('topP', 'must be a number in (0, 1]', topP);
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1)) fail('maxTokens', 'must be an integer >= 1', maxTokens);
  if (seed !== undefined && !Number.isInteger(seed)) fail('seed', 'must be an integer', seed);
  if (n !== undefined && !(Number.isInteger(n) && n >= 1)) fail('n', 'must be an integer >= 1', n);
  if (stop !== undefined && !(Array.isArray(stop) && stop.every((item) => typeof item === 'string'))) fail('stop', 'must be an array of strings', stop);
}

/** What every call of one chat model needs: its settings resolved once by `createChatModel`. */
interface ChatContext {
  readonly where: string;
  readonly model: string;
  readonly resolve: () => ResolvedConnection;
  readonly timeoutMs: number;
  readonly defaults: OpenAICompatibleGenerateDefaults;
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  readonly streamUsage: boolean;
}

type OpenedStream = { kind: 'events'; stream: AsyncIterable<unknown> } | { kind: 'whole'; result: GenerateResult };

/** The chat-completions request body: system, messages, prompt, then the sampling settings (request over defaults). */
function buildBody(context: ChatContext, request: GenerateRequest, n: number): Record<string, unknown> {
  const { defaults, maxTokensField } = context;
  const messages: ChatMessageBody[] = [];
  if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages ?? []) messages.push({ role: message.role, content: message.content });
  if (request.prompt !== undefined) messages.push({ role: 'user', content: request.prompt });
  const temperature = request.temperature ?? defaults.temperature;
  const topP = request.topP ?? defaults.topP;
  const maxTokens = request.maxTokens ?? defaults.maxTokens;
  const stop = request.stop ?? defaults.stop;
  const seed = request.seed ?? defaults.seed;
  return {
    model: context.model,
    messages,
    ...(n === 1 ? {} : { n }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { top_p: topP }),
    ...(maxTokens === undefined ? {} : { [maxTokensField]: maxTokens }),
    ...(stop === undefined || stop.length === 0 ? {} : { stop: [...stop] }),
    ...(seed === undefined ? {} : { seed }),
  };
}

/** Checks a request on entry and returns its `n`. @throws InvalidArgumentError naming the bad field */
function validateRequest(where: string, request: GenerateRequest, method: string): number {
  const methodWhere = `${where}.${method}`;
  const fail = (argument: string, message: string): never => {
    throw new InvalidArgumentError({ where: methodWhere, argument, message });
  };
  if (typeof request !== 'object' || request === null) {
    fail('request', 'must be an object');
  }
  const hasPrompt = typeof request.prompt === 'string';
  const hasMessages = Array.isArray(request.messages) && request.messages.length > 0;
  if (!hasPrompt && !hasMessages) {
    fail('prompt', 'is missing: give "prompt" or a non-empty "messages"');
  }
  if (request.prompt !== undefined && !hasPrompt) {
    fail('prompt', 'must be a string');
  }
  (request.messages ?? []).forEach((message, index) => {
    const valid = typeof message === 'object' && message !== null && (message.role === 'system' || message.role === 'user' || message.role === 'assistant') && typeof message.content === 'string';
    if (!valid) {
      fail(`messages[${index}]`, "must be { role: 'system' | 'user' | 'assistant', content: string }");
    }
  });
  if (request.system !== undefined && typeof request.system !== 'string') {
    fail('system', 'must be a string');
  }
  validateSettings(methodWhere, request, '');
  return request.n ?? 1;
}

/** One chat-completions call asking for `n` completions; fewer back is a ResponseParseError. */
async function generateOnce(context: ChatContext, request: GenerateRequest, n: number): Promise<GenerateResult> {
  const { model, resolve, timeoutMs } = context;
  const { value } = await callOnce({ operation: 'chat completion', model, resolve, timeoutMs, abortSignal: request.abortSignal }, async ({ signal, connection }) => {
    const body = buildBody(context, request, n);
    const response = await connection.client.chat.completions.create(body as unknown as Parameters<typeof connection.client.chat.completions.create>[0], { signal }).asResponse();
    const raw = await response.text();
    const result = parseChatCompletionBody(raw);
    if (result.texts.length < n) {
      throw new ResponseParseError({
        message: `${PROVIDER}: asked for n=${n} completions but the server returned ${result.texts.length}; set "emulateN: true" for servers that ignore n`,
        raw: raw.slice(0, 4000),
      });
    }
    return result;
  });
  return value;
}

/** `emulateN`: n sequential one-completion calls, usage summed. */
async function generateEmulatingN(context: ChatContext, request: GenerateRequest, n: number): Promise<GenerateResult> {
  const texts: string[] = [];
  const finishReasons: string[] = [];
  let usage: Usage = EMPTY_USAGE;
  for (let index = 0; index < n; index += 1) {
    // With a seed, call i uses seed + i: reproducible, yet the n samples differ on servers that honour seeds.
    const seed = request.seed ?? context.defaults.seed;
    const part = await generateOnce(context, seed === undefined ? request : { ...request, seed: seed + index }, 1);
    texts.push(...part.texts.slice(0, 1));
    finishReasons.push(...(part.finishReasons ?? ['unknown']).slice(0, 1));
    usage = {
      inputTokens: usage.inputTokens + part.usage.inputTokens,
      outputTokens: usage.outputTokens + part.usage.outputTokens,
      totalTokens: usage.totalTokens + part.usage.totalTokens,
    };
  }
  return { texts, usage, finishReasons };
}

/** Opens a streaming call: server-sent events, or one whole completion from a server that ignores `stream: true`. */
async function openStream(context: ChatContext, request: GenerateRequest, abortSignal: AbortSignal | undefined) {
  const { model, resolve, timeoutMs, streamUsage } = context;
  let connectionForErrors: ResolvedConnection | undefined;
  const call = await callOnce({ operation: 'chat completion stream', model, resolve, timeoutMs, abortSignal, keepAbortLink: true }, async ({ signal, connection }): Promise<OpenedStream> => {
    connectionForErrors = connection;
    const body = { ...buildBody(context, request, 1), stream: true, ...(streamUsage ? { stream_options: { include_usage: true } } : {}) };
    const { data, response } = await connection.client.chat.completions.create(body as unknown as Parameters<typeof connection.client.chat.completions.create>[0], { signal }).withResponse();
    if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      return { kind: 'events' as const, stream: data as unknown as AsyncIterable<unknown> };
    }
    // Some servers ignore `stream: true` and answer with one JSON completion: read it whole.
    return { kind: 'whole' as const, result: parseChatCompletionBody(await response.text()) };
  });
  return { opened: call.value, unlink: call.unlink, connectionForErrors };
}

/** The parts of an opened stream: deltas, then `text-end` with usage; a failure mid-stream is an `error` part. */
async function* readOpened(opened: OpenedStream, model: string, connectionForErrors: ResolvedConnection | undefined, abortSignal: AbortSignal | undefined): AsyncIterable<GenerateStreamPart> {
  let usage: Usage | undefined;
  if (opened.kind === 'whole') {
    const text = opened.result.texts[0] ?? '';
    if (text.length > 0) yield { type: 'text-delta', text };
    yield { type: 'text-end', usage: opened.result.usage };
    return;
  }
  try {
    for await (const chunk of opened.stream) {
      // Chunks already buffered would still arrive after an abort: stop at once instead.
      abortSignal?.throwIfAborted();
      const part = readStreamChunk(chunk);
      if (part.usage) usage = part.usage;
      if (part.text.length > 0) yield { type: 'text-delta', text: part.text };
    }
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    const mapped = connectionForErrors ? toFactkitError(error, { operation: 'chat completion stream', connection: connectionForErrors, model }) : error;
    yield { type: 'error', error: mapped };
    return;
  }
  if (abortSignal?.aborted) throw abortSignal.reason;
  yield { type: 'text-end', ...(usage === undefined ? {} : { usage }) };
}

/** `stream`: one call with `n` = 1; a failure to open is an `error` part, an abort rethrows its reason. */
async function* streamChat(context: ChatContext, request: GenerateRequest): AsyncIterable<GenerateStreamPart> {
  request?.abortSignal?.throwIfAborted();
  const n = validateRequest(context.where, request, 'stream');
  if (n !== 1) {
    throw new InvalidArgumentError({ where: `${context.where}.stream`, argument: 'n', message: `must be 1 when streaming (got ${n})` });
  }
  const { abortSignal } = request;
  let stream: Awaited<ReturnType<typeof openStream>>;
  try {
    // The caller's abort stays linked to the HTTP call while the events are read; unlinked when the generator ends.
    stream = await openStream(context, request, abortSignal);
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    yield { type: 'error', error };
    return;
  }
  try {
    yield* readOpened(stream.opened, context.model, stream.connectionForErrors, abortSignal);
  } finally {
    stream.unlink();
  }
}

/**
 * The chat-completions LanguageModel behind `provider.languageModel()`: one HTTP call per `generate` (n calls with
 * `emulateN`), never retried here.
 */
export function createChatModel(where: string, connection: Connection, model: string, options: OpenAICompatibleLanguageModelOptions = {}): LanguageModel {
  const { defaults = {}, maxTokensField = 'max_tokens', emulateN = false, streamUsage = true } = options;
  validateSettings(where, defaults, 'defaults.');
  if (maxTokensField !== 'max_tokens' && maxTokensField !== 'max_completion_tokens') {
    throw new InvalidArgumentError({ where, argument: 'maxTokensField', message: `must be 'max_tokens' or 'max_completion_tokens' (got ${String(maxTokensField)})` });
  }
  const context: ChatContext = { where, model, resolve: () => connection.resolve(), timeoutMs: connection.timeoutMs, defaults, maxTokensField, streamUsage };
  return {
    get id(): string {
      return options.id ?? `${PROVIDER}:${model}`;
    },
    get provider(): string {
      return connection.providerName();
    },
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      request?.abortSignal?.throwIfAborted();
      const n = validateRequest(where, request, 'generate');
      if (!emulateN || n === 1) return generateOnce(context, request, n);
      return generateEmulatingN(context, request, n);
    },
    stream: (request: GenerateRequest) => streamChat(context, request),
  };
}
