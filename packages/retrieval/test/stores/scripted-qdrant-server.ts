import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the scripted server received. */
export interface QdrantRequestRecord {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
}

export interface ScriptedQdrantServer {
  readonly url: string;
  readonly requests: QdrantRequestRecord[];
  /** Make the next request to a path matching `pattern` fail with this HTTP status (once). */
  failNext(pattern: RegExp, status: number): void;
  close(): Promise<void>;
}

interface Collection {
  size: number;
  distance: 'Cosine' | 'Dot';
  points: Map<string | number, { vector: number[]; payload: Record<string, unknown> }>;
}

/**
 * A local HTTP server on 127.0.0.1 speaking the part of Qdrant's REST protocol (v1.x, JSON `{ result, status, time }`
 * envelopes) that the vector store uses: collection exists/create, points upsert/query/delete/count. Collections are
 * held in memory and searched exactly (Cosine normalises vectors at insert, as Qdrant does; Dot is the raw product).
 * It is a protocol double for tests, not a Qdrant: no HNSW, no filters, no payload indexes.
 */
export async function startScriptedQdrantServer(): Promise<ScriptedQdrantServer> {
  const collections = new Map<string, Collection>();
  const requests: QdrantRequestRecord[] = [];
  const failures: { pattern: RegExp; status: number }[] = [];

  const send = (response: ServerResponse, status: number, payload: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(payload));
  };
  const ok = (response: ServerResponse, result: unknown): void => send(response, 200, { result, status: 'ok', time: 0.0001 });
  const error = (response: ServerResponse, status: number, message: string): void => send(response, status, { status: { error: message }, time: 0.0001 });
  const normalise = (vector: number[]): number[] => {
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    return norm === 0 ? vector.map(() => 0) : vector.map((value) => value / norm);
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: unknown): void => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    requests.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    const failure = failures.findIndex((entry) => entry.pattern.test(`${method} ${url.pathname}`));
    if (failure >= 0) {
      const { status } = failures.splice(failure, 1)[0] as { status: number };
      return error(response, status, 'scripted failure');
    }
    const match = /^\/collections\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!match) return error(response, 404, `unknown path ${url.pathname}`);
    const name = decodeURIComponent(match[1] as string);
    const rest = match[2] ?? '';
    const collection = collections.get(name);
    const input = (body ?? {}) as Record<string, unknown>;
    if (method === 'GET' && rest === '/exists') return ok(response, { exists: collection !== undefined });
    if (method === 'PUT' && rest === '') {
      const vectors = input['vectors'] as { size: number; distance: 'Cosine' | 'Dot' };
      if (collection) return error(response, 409, `Collection \`${name}\` already exists!`);
      collections.set(name, { size: vectors.size, distance: vectors.distance, points: new Map() });
      return ok(response, true);
    }
    if (!collection) return error(response, 404, `Collection \`${name}\` doesn't exist!`);
    if (method === 'PUT' && rest === '/points') {
      for (const point of input['points'] as { id: string | number; vector: number[]; payload?: Record<string, unknown> }[]) {
        if (point.vector.length !== collection.size) return error(response, 400, `Wrong input: Vector dimension error: expected dim: ${collection.size}, got ${point.vector.length}`);
        collection.points.set(point.id, { vector: collection.distance === 'Cosine' ? normalise(point.vector) : point.vector, payload: point.payload ?? {} });
      }
      return ok(response, { operation_id: requests.length, status: 'completed' });
    }
    if (method === 'POST' && rest === '/points/query') {
      const query = input['query'] as number[];
      const target = collection.distance === 'Cosine' ? normalise(query) : query;
      const limit = (input['limit'] as number | undefined) ?? 10;
      const scored = [...collection.points].map(([id, point]) => ({
        id,
        version: 0,
        score: point.vector.reduce((sum, value, index) => sum + value * (target[index] as number), 0),
        ...(input['with_payload'] ? { payload: point.payload } : {}),
      }));
      scored.sort((a, b) => b.score - a.score);
      return ok(response, { points: scored.slice(0, limit) });
    }
    if (method === 'POST' && rest === '/points/delete') {
      for (const id of input['points'] as (string | number)[]) collection.points.delete(id);
      return ok(response, { operation_id: requests.length, status: 'completed' });
    }
    if (method === 'POST' && rest === '/points/count') return ok(response, { count: collection.points.size });
    return error(response, 404, `unsupported ${method} ${url.pathname}`);
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      handle(request, response, text.length > 0 ? JSON.parse(text) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (pattern, status) => failures.push({ pattern, status }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((closeError) => (closeError ? reject(closeError) : resolve()));
      }),
  };
}
