import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that speaks the parts of the OpenAI REST API factkit uses
 * (`POST /v1/chat/completions` incl. `n` and `stream`, `POST /v1/embeddings`, `GET /v1/models`)
 * and answers from a script, so provider code can be tested with the real `openai` SDK offline.
 */

/** Fields every scripted reply may carry. */
export interface ScriptedReplyBase {
  /** Wait this long before answering (a slow server). The wait ends early if the client disconnects. */
  readonly delayMs?: number;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A successful chat completion: one string per choice (an array answers `n > 1`). */
export interface ScriptedContentReply extends ScriptedReplyBase {
  readonly content: string | readonly string[];
  /** Per-choice finish reason. @default 'stop' */
  readonly finishReason?: string | readonly string[];
  /** Override the computed usage (whitespace token counts). */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
  /** Model name echoed back. @default the request's model */
  readonly model?: string;
}

/** A successful embeddings response, one vector per input (in the given order unless `shuffle`). */
export interface ScriptedEmbeddingsReply extends ScriptedReplyBase {
  readonly embeddings: readonly (readonly number[])[];
  /** Send the `data` items in reverse order (each keeps its `index`), to test re-ordering by index. */
  readonly reverseOrder?: boolean;
  readonly usage?: { readonly prompt_tokens: number };
}

/** An HTTP error. `body` is sent as JSON (objects) or verbatim (strings). @default OpenAI-style error object */
export interface ScriptedStatusReply extends ScriptedReplyBase {
  readonly status: number;
  readonly body?: unknown;
}

/** Destroy the socket without answering (a dropped connection). */
export interface ScriptedDropReply extends ScriptedReplyBase {
  readonly drop: true;
}

/** Answer 200 with `content-type: application/json` and a body that is not valid JSON. */
export interface ScriptedMalformedReply extends ScriptedReplyBase {
  readonly malformed: true;
}

/** Only wait (`delayMs`), then answer with the default reply for the endpoint. */
export type ScriptedDelayReply = ScriptedReplyBase & { readonly delayMs: number };

export type ScriptedReply = ScriptedContentReply | ScriptedEmbeddingsReply | ScriptedStatusReply | ScriptedDropReply | ScriptedMalformedReply | ScriptedDelayReply;

/** One request the server received (also what a handler gets). */
export interface ScriptedRequest {
  readonly method: string;
  /** Path without query string, e.g. '/v1/chat/completions'. */
  readonly path: string;
  /** Parsed JSON body; the raw string when it is not JSON; undefined when empty. */
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  /** 0-based index of this request among all requests the server received. */
  readonly callIndex: number;
}

export type ScriptedHandler = (request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedOpenAIServerOptions {
  /**
   * A handler, or one reply per request in order (GET /v1/models is answered without consuming the array).
   * When the array runs out the server answers 500 with a message saying so.
   * Without a script: chat echoes the last user message as `echo: <text>`; embeddings are deterministic
   * unit vectors derived from each text (length `dimensions` from the request, else `defaultDimensions`).
   */
  readonly script?: ScriptedHandler | readonly ScriptedReply[];
  /** @default 8 */
  readonly defaultDimensions?: number;
  /** Ids listed by GET /v1/models. @default ['scripted-model'] */
  readonly models?: readonly string[];
}

export interface ScriptedOpenAIServer {
  /** Base URL ending in `/v1`, e.g. 'http://127.0.0.1:41234/v1'. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: ScriptedRequest[];
  /** Stop listening, end pending delays, destroy every open socket. Idempotent. */
  close(): Promise<void>;
}

interface ChatBody {
  model?: unknown;
  messages?: unknown;
  n?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown } | null;
}

interface EmbeddingsBody {
  model?: unknown;
  input?: unknown;
  dimensions?: unknown;
}

const CHAT_PATH = '/v1/chat/completions';
const EMBEDDINGS_PATH = '/v1/embeddings';
const MODELS_PATH = '/v1/models';

export async function startScriptedOpenAIServer(options: ScriptedOpenAIServerOptions = {}): Promise<ScriptedOpenAIServer> {
  const { script, defaultDimensions = 8, models = ['scripted-model'] } = options;
  const state: ServerState = { script, defaultDimensions, models, requests: [], sockets: new Set(), pendingDelays: new Set(), scriptedCalls: 0, closed: false };
  const server = createServer((incoming, response) => {
    handleRequest(state, incoming, response).catch((error: unknown) => {
      if (response.headersSent || incoming.socket.destroyed) {
        incoming.socket.destroy();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      send(response, 500, JSON.stringify(errorBody(`scripted handler threw: ${message}`, 'server_error')), {});
    });
  });
  server.on('connection', (socket) => {
    state.sockets.add(socket);
    socket.on('close', () => state.sockets.delete(socket));
  });
  const port = await listenOnLoopback(server);

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        state.closed = true;
        for (const finish of [...state.pendingDelays]) finish();
        server.close(() => resolve());
        for (const socket of state.sockets) socket.destroy();
        state.sockets.clear();
      });
      return closing;
    },
  };
}

/** What one scripted server keeps between requests. */
interface ServerState {
  readonly script: ScriptedOpenAIServerOptions['script'];
  readonly defaultDimensions: number;
  readonly models: readonly string[];
  readonly requests: ScriptedRequest[];
  readonly sockets: Set<Socket>;
  /** Ends of the delays in progress, so `close` can end them early. */
  readonly pendingDelays: Set<() => void>;
  /** Replies taken from a scripted array so far. */
  scriptedCalls: number;
  closed: boolean;
}

function listenOnLoopback(server: Server): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** The scripted reply for a request: from the handler, or the next one of the array (GET /v1/models consumes none). */
async function nextScriptedReply(state: ServerState, request: ScriptedRequest): Promise<ScriptedReply | undefined> {
  const { script } = state;
  if (script === undefined) return undefined;
  if (typeof script === 'function') return script(request);
  if (request.method === 'GET' && request.path === MODELS_PATH) return undefined;
  const reply = script[state.scriptedCalls];
  state.scriptedCalls += 1;
  if (reply === undefined) {
    return {
      status: 500,
      body: errorBody(`scripted OpenAI server: no reply scripted for request #${request.callIndex}`, 'server_error'),
    };
  }
  return reply;
}

/** Waits `ms`, ending early when the client disconnects or the server closes. */
function waitOrDisconnect(state: ServerState, ms: number, request: IncomingMessage): Promise<void> {
  return new Promise<void>((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      state.pendingDelays.delete(finish);
      request.socket.off('close', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    state.pendingDelays.add(finish);
    request.socket.once('close', finish);
  });
}

async function recordRequest(state: ServerState, incoming: IncomingMessage): Promise<ScriptedRequest> {
  const rawBody = await readBody(incoming);
  const request: ScriptedRequest = {
    method: incoming.method ?? 'GET',
    path: new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname.replace(/\/+$/, ''),
    body: parseBody(rawBody),
    headers: incoming.headers,
    callIndex: state.requests.length,
  };
  state.requests.push(request);
  return request;
}

async function handleRequest(state: ServerState, incoming: IncomingMessage, response: ServerResponse): Promise<void> {
  const request = await recordRequest(state, incoming);
  const reply = await nextScriptedReply(state, request);
  if (reply?.delayMs !== undefined && reply.delayMs > 0) {
    await waitOrDisconnect(state, reply.delayMs, incoming);
  }
  if (state.closed || incoming.socket.destroyed) return;
  const extraHeaders = reply?.headers ?? {};
  if (reply !== undefined && sendFault(reply, incoming, response, extraHeaders)) return;
  routeRequest(state, request, reply, response, extraHeaders);
}

/** A dropped connection, a malformed body or an HTTP error, when the reply scripts one; returns whether it did. */
function sendFault(reply: ScriptedReply, incoming: IncomingMessage, response: ServerResponse, extraHeaders: Readonly<Record<string, string>>): boolean {
  if ('drop' in reply && reply.drop) {
    incoming.socket.destroy();
    return true;
  }
  if ('malformed' in reply && reply.malformed) {
    send(response, 200, '{"id":"chatcmpl-broken","choices":[{"index":0,"message":{"content":"unterminat', extraHeaders);
    return true;
  }
  if ('status' in reply) {
    const body = reply.body === undefined ? errorBody(`scripted error ${reply.status}`, 'scripted_error') : reply.body;
    send(response, reply.status, typeof body === 'string' ? body : JSON.stringify(body), extraHeaders);
    return true;
  }
  return false;
}

/** Answers GET /v1/models, POST /v1/chat/completions and POST /v1/embeddings (a reply that does not fit is a 500); else 404. */
function routeRequest(state: ServerState, request: ScriptedRequest, reply: ScriptedReply | undefined, response: ServerResponse, extraHeaders: Readonly<Record<string, string>>): void {
  const { method, path } = request;
  if (method === 'GET' && path === MODELS_PATH) {
    const data = state.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'factkit-test' }));
    send(response, 200, JSON.stringify({ object: 'list', data }), extraHeaders);
    return;
  }
  const route = method === 'POST' && path === CHAT_PATH ? 'chat' : method === 'POST' && path === EMBEDDINGS_PATH ? 'embeddings' : undefined;
  if (route === undefined) {
    send(response, 404, JSON.stringify(errorBody(`unknown route ${method} ${path}`, 'invalid_request_error')), {});
    return;
  }
  if (typeof request.body !== 'object' || request.body === null) {
    send(response, 400, JSON.stringify(errorBody('request body must be a JSON object', 'invalid_request_error')), {});
    return;
  }
  if (route === 'chat') {
    const contentReply = reply !== undefined && 'content' in reply ? reply : undefined;
    if (reply !== undefined && contentReply === undefined && !isDelayOnly(reply)) {
      send(response, 500, JSON.stringify(errorBody('scripted reply does not fit /v1/chat/completions', 'server_error')), {});
      return;
    }
    writeChat(response, request.body as ChatBody, contentReply, extraHeaders);
    return;
  }
  const embeddingsReply = reply !== undefined && 'embeddings' in reply ? reply : undefined;
  if (reply !== undefined && embeddingsReply === undefined && !isDelayOnly(reply)) {
    send(response, 500, JSON.stringify(errorBody('scripted reply does not fit /v1/embeddings', 'server_error')), {});
    return;
  }
  writeEmbeddings(response, request.body as EmbeddingsBody, embeddingsReply, state.defaultDimensions, extraHeaders);
}

function isDelayOnly(reply: ScriptedReply): boolean {
  return !('content' in reply) && !('embeddings' in reply) && !('status' in reply) && !('drop' in reply) && !('malformed' in reply);
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseBody(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function errorBody(message: string, type: string): { error: { message: string; type: string; param: null; code: null } } {
  return { error: { message, type, param: null, code: null } };
}

function send(response: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>>): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

function countTokens(text: string): number {
  const trimmed = text.trim();
  return trimmed.length === 0 ? 0 : trimmed.split(/\s+/).length;
}

function messageTexts(messages: unknown): { all: string[]; lastUser: string } {
  const all: string[] = [];
  let lastUser = '';
  if (Array.isArray(messages)) {
    for (const message of messages as unknown[]) {
      if (typeof message !== 'object' || message === null) continue;
      const { role, content } = message as { role?: unknown; content?: unknown };
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? (content as unknown[]).map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('')
            : '';
      all.push(text);
      if (role === 'user') lastUser = text;
    }
  }
  return { all, lastUser };
}

function writeChat(response: ServerResponse, body: ChatBody, reply: ScriptedContentReply | undefined, headers: Readonly<Record<string, string>>): void {
  const { all, lastUser } = messageTexts(body.messages);
  const requestedN = typeof body.n === 'number' && Number.isInteger(body.n) && body.n > 0 ? body.n : 1;
  const contents: readonly string[] = reply === undefined ? Array.from({ length: requestedN }, () => `echo: ${lastUser}`) : typeof reply.content === 'string' ? [reply.content] : reply.content;
  const finishReasons = contents.map((_, index) => {
    const reason = reply?.finishReason;
    if (reason === undefined) return 'stop';
    return typeof reason === 'string' ? reason : (reason[index] ?? 'stop');
  });
  const model = reply?.model ?? (typeof body.model === 'string' ? body.model : 'scripted-model');
  const promptTokens = reply?.usage?.prompt_tokens ?? all.reduce((sum, text) => sum + countTokens(text), 0);
  const completionTokens = reply?.usage?.completion_tokens ?? contents.reduce((sum, text) => sum + countTokens(text), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const id = 'chatcmpl-scripted';
  const created = 1_700_000_000;

  if (body.stream === true) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
    const event = (payload: unknown): void => {
      response.write(`data: ${JSON.stringify(payload)}\n\n`);
    };
    contents.forEach((text, index) => {
      event({ id, object: 'chat.completion.chunk', created, model, choices: [{ index, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
        event({ id, object: 'chat.completion.chunk', created, model, choices: [{ index, delta: { content: piece }, finish_reason: null }] });
      }
      event({ id, object: 'chat.completion.chunk', created, model, choices: [{ index, delta: {}, finish_reason: finishReasons[index] }] });
    });
    if (body.stream_options?.include_usage === true) {
      event({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
    }
    response.end('data: [DONE]\n\n');
    return;
  }

  const payload = {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: contents.map((text, index) => ({
      index,
      message: { role: 'assistant', content: text, refusal: null },
      logprobs: null,
      finish_reason: finishReasons[index],
    })),
    usage,
  };
  send(response, 200, JSON.stringify(payload), headers);
}

function writeEmbeddings(response: ServerResponse, body: EmbeddingsBody, reply: ScriptedEmbeddingsReply | undefined, defaultDimensions: number, headers: Readonly<Record<string, string>>): void {
  const inputs: string[] = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? (body.input as unknown[]).map((item) => String(item)) : [];
  const dimensions = typeof body.dimensions === 'number' && body.dimensions > 0 ? body.dimensions : defaultDimensions;
  const vectors: readonly (readonly number[])[] = reply?.embeddings ?? inputs.map((text) => deterministicVector(text, dimensions));
  const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
  if (reply?.reverseOrder === true) data.reverse();
  const promptTokens = reply?.usage?.prompt_tokens ?? inputs.reduce((sum, text) => sum + countTokens(text), 0);
  const payload = {
    object: 'list',
    data,
    model: typeof body.model === 'string' ? body.model : 'scripted-model',
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  send(response, 200, JSON.stringify(payload), headers);
}

/** A unit vector derived from the text with FNV-1a and a xorshift stream: same text, same vector. */
function deterministicVector(text: string, dimensions: number): number[] {
  let state = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    state ^= text.charCodeAt(index);
    state = Math.imul(state, 0x01000193) >>> 0;
  }
  if (state === 0) state = 1;
  const vector: number[] = [];
  for (let index = 0; index < dimensions; index += 1) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    vector.push(state / 0xffffffff - 0.5);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
