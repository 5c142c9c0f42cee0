import { InvalidArgumentError, ProviderCallError } from '@factkit/core';

/** Which official client (and so which request/response shape) is in use. */
export type SearchClusterFlavor = 'opensearch' | 'elasticsearch';

/**
 * Any client method: the official clients' overloaded, generic methods are all assignable to it. factkit calls them
 * with the request shape of the client's flavor.
 */
export type SearchClusterClientMethod = (params: never, options?: never) => Promise<unknown>;

/**
 * The part of an official client factkit uses: pass your own `new Client({ node })` from
 * `@opensearch-project/opensearch` (2.x, 3.x) or `@elastic/elasticsearch` (8.x, 9.x).
 */
export interface SearchClusterClient {
  readonly search: SearchClusterClientMethod;
  readonly bulk: SearchClusterClientMethod;
  readonly indices: {
    readonly create: SearchClusterClientMethod;
    readonly exists: SearchClusterClientMethod;
    readonly refresh: SearchClusterClientMethod;
    readonly get: SearchClusterClientMethod;
    readonly delete: SearchClusterClientMethod;
  };
}

type LooseMethod = (params: Record<string, unknown>, options?: Record<string, unknown>) => Promise<unknown> & { abort?: () => void };

/**
 * Tells the two official clients apart by methods only one of them has: the OpenSearch client has `createPit` and
 * `extend`; the Elasticsearch client (8.x and later) has `diagnostic`. Undefined when neither matches.
 */
export function detectSearchClusterFlavor(client: unknown): SearchClusterFlavor | undefined {
  if (typeof client !== 'object' || client === null) return undefined;
  const record = client as Record<string, unknown>;
  if (typeof record['createPit'] === 'function' || typeof record['extend'] === 'function') return 'opensearch';
  if ('diagnostic' in record) return 'elasticsearch';
  return undefined;
}

/** The status code and body of a client error, whichever client threw it. */
export function readErrorStatus(error: unknown): { statusCode: number | undefined; body: unknown } {
  if (typeof error !== 'object' || error === null) return { statusCode: undefined, body: undefined };
  const meta = (error as { meta?: { statusCode?: unknown; body?: unknown } }).meta;
  const statusCode = typeof meta?.statusCode === 'number' ? meta.statusCode : typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : undefined;
  return { statusCode, body: meta?.body };
}

const RETRYABLE_ERROR_NAMES = new Set(['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError']);

/** True for 429, 502, 503, 504 and connection/timeout failures. */
export function isRetryableClusterError(error: unknown): boolean {
  const { statusCode } = readErrorStatus(error);
  if (statusCode !== undefined) return statusCode === 429 || statusCode === 502 || statusCode === 503 || statusCode === 504;
  return typeof error === 'object' && error !== null && RETRYABLE_ERROR_NAMES.has((error as Error).name);
}

/** One adapter per flavor: the request shape, the response unwrapping, and abort passed through. */
export interface ClusterAdapter {
  readonly flavor: SearchClusterFlavor;
  /** Calls `client[path]` with `params` (top-level keys) and `body` (the request body), returns the response body. */
  call(method: 'search' | 'bulk' | 'indices.create' | 'indices.exists' | 'indices.refresh' | 'indices.get' | 'indices.delete', params: Record<string, unknown>, body: unknown, abortSignal: AbortSignal | undefined): Promise<unknown>;
}

export function createClusterAdapter(client: SearchClusterClient, flavorOption: SearchClusterFlavor | undefined, where: string): ClusterAdapter {
  if (typeof client !== 'object' || client === null || typeof client.search !== 'function' || typeof client.bulk !== 'function' || typeof client.indices?.create !== 'function') {
    throw new InvalidArgumentError({ where, argument: 'client', message: 'must be an OpenSearch or Elasticsearch client (with search, bulk and indices.create)' });
  }
  if (flavorOption !== undefined && flavorOption !== 'opensearch' && flavorOption !== 'elasticsearch') {
    throw new InvalidArgumentError({ where, argument: 'flavor', message: `must be 'opensearch' or 'elasticsearch' (got ${String(flavorOption)})` });
  }
  const flavor = flavorOption ?? detectSearchClusterFlavor(client);
  if (flavor === undefined) throw new InvalidArgumentError({ where, argument: 'flavor', message: "is required: the client is neither recognisably OpenSearch nor Elasticsearch; pass flavor: 'opensearch' | 'elasticsearch'" });
  const provider = flavor;
  return {
    flavor,
    async call(method, params, body, abortSignal) {
      abortSignal?.throwIfAborted();
      const [namespace, name] = method.includes('.') ? (method.split('.') as [string, string]) : [undefined, method];
      const owner = (namespace === undefined ? client : (client as unknown as Record<string, unknown>)[namespace]) as Record<string, LooseMethod>;
      let request: Record<string, unknown> = params;
      if (body !== undefined) {
        if (flavor === 'opensearch') request = { ...params, body };
        else if (method === 'bulk') request = { ...params, operations: body };
        else request = { ...params, ...(body as Record<string, unknown>) };
      }
      // Elasticsearch's transport takes an AbortSignal; the OpenSearch client returns a promise with abort().
      const pending = owner[name]!.call(owner, request, flavor === 'elasticsearch' && abortSignal ? { signal: abortSignal } : {});
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        if (!abortSignal) return;
        onAbort = () => {
          pending.abort?.();
          reject(abortSignal.reason);
        };
        abortSignal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const response = await Promise.race([pending, aborted]);
        if (flavor === 'opensearch' && typeof response === 'object' && response !== null && 'body' in response) return (response as { body: unknown }).body;
        return response;
      } catch (error) {
        if (abortSignal?.aborted) throw abortSignal.reason;
        const { statusCode, body: responseBody } = readErrorStatus(error);
        throw new ProviderCallError({
          provider,
          message: `${method} failed${statusCode === undefined ? '' : ` with status ${statusCode}`}: ${(error as Error)?.message ?? String(error)}`,
          statusCode,
          isRetryable: isRetryableClusterError(error),
          responseBody: responseBody === undefined ? undefined : typeof responseBody === 'string' ? responseBody : JSON.stringify(responseBody),
          cause: error,
        });
      } finally {
        if (onAbort) abortSignal?.removeEventListener('abort', onAbort);
        pending.catch(() => undefined);
      }
    },
  };
}
