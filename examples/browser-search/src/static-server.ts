import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.bm25': 'application/octet-stream',
  '.png': 'image/png',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** Paths requested so far (the browser test checks that the page asked for nothing else). */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** Serves the files of `directory` on 127.0.0.1 at an ephemeral port: what any static file host does, nothing more. */
export async function startStaticServer(directory: string): Promise<StaticServer> {
  const root = normalize(directory + sep);
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    requests.push(path);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root) || request.method !== 'GET') {
      response.writeHead(request.method === 'GET' ? 404 : 405).end();
      return;
    }
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
