// Every class has its own marker (vercel/ai's AISDKError pattern): `isInstance` checks the class's own symbol, so a
// base FactkitError that merely carries a subclass's code is not an instance of that subclass, and the check still
// works across two loaded copies of core (Symbol.for is global).
const MARKER = 'factkit.error';
const SYMBOL = Symbol.for(MARKER);

/** The closed set of error codes every factkit package uses. */
export type FactkitErrorCode = 'invalid_argument' | 'provider_call_failed' | 'response_parse_failed' | 'unsupported' | 'corrupt_data' | 'load_failed' | 'timeout' | 'worker_failed';

export const FACTKIT_ERROR_CODES: readonly FactkitErrorCode[] = ['invalid_argument', 'provider_call_failed', 'response_parse_failed', 'unsupported', 'corrupt_data', 'load_failed', 'timeout', 'worker_failed'];

/** Base of all factkit errors. Check with `FactkitError.isInstance`, never `instanceof` (two copies of core may be loaded). */
export class FactkitError extends Error {
  private readonly [SYMBOL] = true;
  readonly code: FactkitErrorCode;

  constructor(code: FactkitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FactkitError';
    this.code = code;
  }

  static isInstance(value: unknown): value is FactkitError {
    return FactkitError.hasMarker(value, MARKER);
  }

  /** True when `value` carries the marker `Symbol.for(marker)`; each subclass's `isInstance` checks its own. */
  protected static hasMarker(value: unknown, marker: string): boolean {
    const symbol = Symbol.for(marker);
    return typeof value === 'object' && value !== null && symbol in value && (value as Record<symbol, unknown>)[symbol] === true;
  }
}

const INVALID_ARGUMENT_MARKER = 'factkit.error.InvalidArgumentError';
const INVALID_ARGUMENT_SYMBOL = Symbol.for(INVALID_ARGUMENT_MARKER);

/** An argument or option was missing or out of range. `argument` names it. */
export class InvalidArgumentError extends FactkitError {
  private readonly [INVALID_ARGUMENT_SYMBOL] = true;
  readonly argument: string;
  constructor(options: { argument: string; message: string; cause?: unknown; where?: string }) {
    const prefix = options.where ? `${options.where}: ` : '';
    super('invalid_argument', `${prefix}argument "${options.argument}" ${options.message}`, { cause: options.cause });
    this.name = 'InvalidArgumentError';
    this.argument = options.argument;
  }
  static override isInstance(value: unknown): value is InvalidArgumentError {
    return FactkitError.hasMarker(value, INVALID_ARGUMENT_MARKER);
  }
}

const PROVIDER_CALL_MARKER = 'factkit.error.ProviderCallError';
const PROVIDER_CALL_SYMBOL = Symbol.for(PROVIDER_CALL_MARKER);

/** A call to a model provider failed. `isRetryable` is true for 408/409/429/5xx and network failures. */
export class ProviderCallError extends FactkitError {
  private readonly [PROVIDER_CALL_SYMBOL] = true;
  readonly provider: string;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  /** Seconds the server asked us to wait (Retry-After), when given. */
  readonly retryAfterSeconds: number | undefined;
  /** Response body, truncated, with anything that looks like a secret redacted. */
  readonly responseBody: string | undefined;
  constructor(options: {
    provider: string;
    message: string;
    statusCode?: number;
    isRetryable?: boolean;
    retryAfterSeconds?: number;
    responseBody?: string;
    cause?: unknown;
  }) {
    super('provider_call_failed', redactSecrets(`${options.provider}: ${options.message}`), { cause: options.cause });
    this.name = 'ProviderCallError';
    this.provider = options.provider;
    this.statusCode = options.statusCode;
    this.isRetryable = options.isRetryable ?? isRetryableStatus(options.statusCode);
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.responseBody = options.responseBody === undefined ? undefined : redactSecrets(options.responseBody.slice(0, 2000));
  }
  static override isInstance(value: unknown): value is ProviderCallError {
    return FactkitError.hasMarker(value, PROVIDER_CALL_MARKER);
  }
}

const RESPONSE_PARSE_MARKER = 'factkit.error.ResponseParseError';
const RESPONSE_PARSE_SYMBOL = Symbol.for(RESPONSE_PARSE_MARKER);

/** Model output or a file could not be parsed. Keeps the raw text. */
export class ResponseParseError extends FactkitError {
  private readonly [RESPONSE_PARSE_SYMBOL] = true;
  readonly raw: string;
  constructor(options: { message: string; raw: string; cause?: unknown }) {
    super('response_parse_failed', options.message, { cause: options.cause });
    this.name = 'ResponseParseError';
    this.raw = options.raw;
  }
  static override isInstance(value: unknown): value is ResponseParseError {
    return FactkitError.hasMarker(value, RESPONSE_PARSE_MARKER);
  }
}

const CORRUPT_DATA_MARKER = 'factkit.error.CorruptDataError';
const CORRUPT_DATA_SYMBOL = Symbol.for(CORRUPT_DATA_MARKER);

/** A file or stream is truncated, corrupt, or of an unknown format/version. */
export class CorruptDataError extends FactkitError {
  private readonly [CORRUPT_DATA_SYMBOL] = true;
  readonly source: string | undefined;
  constructor(options: { message: string; source?: string; cause?: unknown }) {
    super('corrupt_data', options.source ? `${options.source}: ${options.message}` : options.message, { cause: options.cause });
    this.name = 'CorruptDataError';
    this.source = options.source;
  }
  static override isInstance(value: unknown): value is CorruptDataError {
    return FactkitError.hasMarker(value, CORRUPT_DATA_MARKER);
  }
}

/** True for statuses worth retrying: 408, 409, 429 and 5xx. */
export function isRetryableStatus(statusCode: number | undefined): boolean {
  if (statusCode === undefined) return false;
  return statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500;
}

const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, '[redacted]'],
  [/(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1[redacted]'],
  [/((?:api[_-]?key|authorization|x-api-key|token|password|secret)["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\s"',}]{4,}/gi, '$1[redacted]'],
  // Credentials inside a URL (`http://user:KEY@host/v1`): the userinfo goes, the host stays.
  [/(\b[a-z][a-z0-9+.-]*:\/\/)(?!\[redacted\]@)[^\s/?#@"'<>]+@/gi, '$1[redacted]@'],
];

/** Replaces things that look like API keys, bearer tokens or credentials in a URL (and any `extraSecrets`) with `[redacted]`. */
export function redactSecrets(text: string, extraSecrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of extraSecrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Rethrows `signal.reason` unchanged when aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/** True when `error` is the reason of the given signal (an abort, to be rethrown unchanged). */
export function isAbortReason(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal !== undefined && signal.aborted && error === signal.reason;
}
