import { ResponseParseError } from '@factkit/core';
import type { GenerateResult, Usage } from '@factkit/core';

const MAX_RAW = 4000;

function parseError(message: string, raw: string, cause?: unknown): ResponseParseError {
  return new ResponseParseError({ message: `openai-compatible: ${message}`, raw: raw.slice(0, MAX_RAW), ...(cause === undefined ? {} : { cause }) });
}

/** Errors thrown because a body is not JSON at all (truncated, an HTML error page), as opposed to JSON of the wrong shape. */
const notJsonErrors = new WeakSet<ResponseParseError>();

/** True when `error` came from a body that is not JSON (truncated or not JSON at all), not from JSON of the wrong shape. */
export function isNotJsonBody(error: ResponseParseError): boolean {
  return notJsonErrors.has(error);
}

function parseJson(raw: string, what: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    const failure = parseError(`${what} response is not valid JSON (truncated or not JSON)`, raw, error);
    notJsonErrors.add(failure);
    throw failure;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/** Token usage from an OpenAI `usage` object; missing fields count 0 (many local servers omit usage). */
export function readUsage(value: unknown): Usage {
  if (!isRecord(value)) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const inputTokens = count(value.prompt_tokens) ?? 0;
  const outputTokens = count(value.completion_tokens) ?? 0;
  const totalTokens = count(value.total_tokens) ?? inputTokens + outputTokens;
  return { inputTokens, outputTokens, totalTokens };
}

/**
 * Reads a chat-completions response body: one text per choice (ordered by `index`), usage, finish reasons.
 * A `null` message content (refusals, tool calls) becomes ''. Throws only ResponseParseError.
 */
export function parseChatCompletionBody(raw: string): GenerateResult {
  const json = parseJson(raw, 'chat completion');
  if (!isRecord(json)) throw parseError('chat completion response is not a JSON object', raw);
  if (isRecord(json.error)) {
    const message = typeof json.error.message === 'string' ? json.error.message : 'unknown error';
    throw parseError(`chat completion response carries an error: ${message}`, raw);
  }
  const { choices } = json;
  if (!Array.isArray(choices) || choices.length === 0) throw parseError('chat completion response has no "choices"', raw);
  const entries = choices.map((choice: unknown, position) => {
    if (!isRecord(choice)) throw parseError(`choice ${position} is not an object`, raw);
    const message = choice.message;
    if (!isRecord(message)) throw parseError(`choice ${position} has no "message"`, raw);
    const content = message.content;
    let text: string;
    if (typeof content === 'string') text = content;
    else if (content === null || content === undefined) text = '';
    else if (Array.isArray(content)) {
      text = content.map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
    } else throw parseError(`choice ${position} has a non-text "content"`, raw);
    const index = typeof choice.index === 'number' && Number.isFinite(choice.index) ? choice.index : position;
    const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : 'unknown';
    return { index, position, text, finishReason };
  });
  entries.sort((a, b) => a.index - b.index || a.position - b.position);
  return {
    texts: entries.map((entry) => entry.text),
    usage: readUsage(json.usage),
    finishReasons: entries.map((entry) => entry.finishReason),
  };
}

/** Float32 values of a little-endian base64 embedding (`encoding_format: 'base64'`). */
function decodeBase64Floats(value: string, raw: string, position: number): Float32Array {
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length % 4 !== 0) throw parseError(`embedding ${position} is base64 of ${bytes.length} bytes, not a multiple of 4`, raw);
  const vector = new Float32Array(bytes.length / 4);
  for (let offset = 0; offset < vector.length; offset += 1) vector[offset] = bytes.readFloatLE(offset * 4);
  return vector;
}

/**
 * Reads an embeddings response body into vectors in input order (sorted by each item's `index`), checking the count,
 * the indices, finiteness and (when given) the dimension. Throws only ResponseParseError.
 */
export function parseEmbeddingsBody(raw: string, expected: { count: number; dimensions?: number }): { embeddings: Float32Array[]; usage: Usage } {
  const json = parseJson(raw, 'embeddings');
  if (!isRecord(json)) throw parseError('embeddings response is not a JSON object', raw);
  const { data } = json;
  if (!Array.isArray(data)) throw parseError('embeddings response has no "data" array', raw);
  if (data.length !== expected.count) {
    throw parseError(`embeddings response has ${data.length} vectors for ${expected.count} inputs`, raw);
  }
  const slots: (Float32Array | undefined)[] = new Array<Float32Array | undefined>(expected.count).fill(undefined);
  data.forEach((item: unknown, position) => {
    if (!isRecord(item)) throw parseError(`embeddings item ${position} is not an object`, raw);
    const index = typeof item.index === 'number' ? item.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= expected.count) {
      throw parseError(`embeddings item ${position} has index ${String(item.index)} outside 0..${expected.count - 1}`, raw);
    }
    if (slots[index] !== undefined) throw parseError(`embeddings response repeats index ${index}`, raw);
    const { embedding } = item;
    let vector: Float32Array;
    if (typeof embedding === 'string') vector = decodeBase64Floats(embedding, raw, index);
    else if (Array.isArray(embedding) && embedding.every((value) => typeof value === 'number')) vector = Float32Array.from(embedding as number[]);
    else throw parseError(`embedding ${index} is not an array of numbers`, raw);
    if (!vector.every((value) => Number.isFinite(value))) throw parseError(`embedding ${index} has a non-finite value`, raw);
    if (expected.dimensions !== undefined && vector.length !== expected.dimensions) {
      throw parseError(`embedding ${index} has ${vector.length} dimensions, expected ${expected.dimensions} (check the "dimensions" option against the model)`, raw);
    }
    slots[index] = vector;
  });
  const usageSource = isRecord(json.usage) ? json.usage : undefined;
  const inputTokens = count(usageSource?.prompt_tokens) ?? 0;
  const usage: Usage = { inputTokens, outputTokens: 0, totalTokens: count(usageSource?.total_tokens) ?? inputTokens };
  return { embeddings: slots as Float32Array[], usage };
}

/** One streamed chunk's text delta, finish reason and usage (all optional). Never throws on a parsed chunk. */
export function readStreamChunk(chunk: unknown): { text: string; finishReason?: string; usage?: Usage } {
  if (!isRecord(chunk)) return { text: '' };
  const choices = Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : [];
  const first = choices.find((choice) => isRecord(choice) && (choice.index === undefined || choice.index === 0));
  let text = '';
  let finishReason: string | undefined;
  if (isRecord(first)) {
    if (isRecord(first.delta) && typeof first.delta.content === 'string') text = first.delta.content;
    if (typeof first.finish_reason === 'string') finishReason = first.finish_reason;
  }
  return {
    text,
    ...(finishReason === undefined ? {} : { finishReason }),
    ...(isRecord(chunk.usage) ? { usage: readUsage(chunk.usage) } : {}),
  };
}
