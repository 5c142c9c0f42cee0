import { FactkitError } from '@factkit/core';
import { getKernelModule } from './kernel/load-kernel.js';
import { scanRows, type ScanJob, type ScanPartial } from './scan-rows.js';

/** Worker threads that run `scanRows` on row ranges of a shared kernel memory. */
export interface ScanWorkerPool {
  /** Starts the workers (once). `run` needs them started. */
  start(): Promise<void>;
  /** Posts the job right away (synchronously), so the worker scans while the caller scans its own share. */
  run(worker: number, memory: WebAssembly.Memory, generation: number, job: ScanJob): Promise<ScanPartial>;
  close(): Promise<void>;
}

interface WorkerLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: { id: number; result?: ScanPartial; error?: string }) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  ref(): void;
  unref(): void;
  terminate(): Promise<number>;
}

// The worker re-creates the kernel instance on the shared memory it is sent and runs the very same scanRows source.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const scanRows = ${scanRows.toString()};
let instance;
let memory;
let generation = -1;
parentPort.on('message', (message) => {
  try {
    if (message.memory) {
      memory = message.memory;
      instance = new WebAssembly.Instance(message.module, { env: { memory } });
      generation = message.generation;
    }
    parentPort.postMessage({ id: message.id, result: scanRows(instance.exports, memory.buffer, message.job) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.stack || error) });
  }
});
`;

/** Starts `size` worker threads lazily (Node.js `worker_threads`). Workers are unreferenced while idle. */
export function createScanWorkerPool(size: number): ScanWorkerPool {
  const module = getKernelModule();
  let workersPromise: Promise<WorkerLike[]> | undefined;
  let started: WorkerLike[] | undefined;
  const sentGeneration: number[] = [];
  const pending = new Map<number, { resolve: (value: ScanPartial) => void; reject: (error: Error) => void; worker: number }>();
  const busyCount: number[] = [];
  let nextId = 0;

  const start = async (): Promise<WorkerLike[]> => {
    // A variable specifier: bundlers for the browser leave it alone (the main entry stays free of Node built-ins);
    // only `threads > 1`, which needs Node's worker_threads, ever reaches this line.
    const workerThreads = 'node:worker_threads';
    const { Worker } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ workerThreads)) as typeof import('node:worker_threads');
    const workers: WorkerLike[] = [];
    for (let i = 0; i < size; i += 1) {
      const worker = new Worker(WORKER_SOURCE, { eval: true }) as unknown as WorkerLike;
      worker.unref();
      worker.on('message', (message) => {
        const entry = pending.get(message.id);
        if (!entry) return;
        pending.delete(message.id);
        busyCount[i] = (busyCount[i] ?? 1) - 1;
        if (busyCount[i] === 0) worker.unref();
        if (message.error !== undefined) entry.reject(new FactkitError('worker_failed', `flat index worker failed: ${message.error}`));
        else entry.resolve(message.result as ScanPartial);
      });
      worker.on('error', (error) => {
        for (const [id, entry] of pending) {
          if (entry.worker !== i) continue;
          pending.delete(id);
          entry.reject(error);
        }
      });
      workers.push(worker);
      sentGeneration.push(-1);
      busyCount.push(0);
    }
    return workers;
  };

  return {
    async start() {
      if (!module) throw new FactkitError('unsupported', 'flat index workers need the WebAssembly kernel');
      workersPromise ??= start();
      started = await workersPromise;
    },
    run(index, memory, generation, job) {
      const worker = started?.[index];
      if (!worker) return Promise.reject(new FactkitError('worker_failed', `flat index worker ${index} is not started`));
      const id = nextId;
      nextId += 1;
      return new Promise<ScanPartial>((resolve, reject) => {
        pending.set(id, { resolve, reject, worker: index });
        busyCount[index] = (busyCount[index] ?? 0) + 1;
        worker.ref();
        if (sentGeneration[index] !== generation) {
          sentGeneration[index] = generation;
          worker.postMessage({ id, job, memory, module, generation });
        } else {
          worker.postMessage({ id, job });
        }
      });
    },
    async close() {
      const current = workersPromise;
      workersPromise = undefined;
      started = undefined;
      if (!current) return;
      const workers = await current;
      for (const [id, entry] of pending) {
        pending.delete(id);
        entry.reject(new FactkitError('worker_failed', 'flat index worker pool closed'));
      }
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
