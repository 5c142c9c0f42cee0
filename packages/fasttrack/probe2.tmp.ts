import { createSeededRandom } from '@factkit/core';
import { initializeKMeansPlusPlus, packVectors } from './src/index.js';
import { loadKMeansKernel, kernelInertia } from './src/clustering/kernel/load-kmeans-kernel.js';
import { runLloydKernel } from './src/internal/lloyd-kernel.js';
const rows = 20000, dimensions = 384;
const random = createSeededRandom(42);
const gaussian = () => { let u = 0; while (u === 0) u = random(); return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random()); };
const topics = Array.from({ length: 40 }, () => Float64Array.from({ length: dimensions }, gaussian));
const subtopics = topics.map((topic) => Array.from({ length: 25 }, () => Float64Array.from(topic, (v) => v + gaussian() * 0.6)));
const vectors: Float32Array[] = [];
for (let row = 0; row < rows; row++) { const sub = subtopics[Math.floor(random() * 40)]![Math.floor(random() * 25)]!; const v = Float32Array.from(sub, (x) => x + gaussian() * 0.8); let n = 0; for (const x of v) n += x * x; n = Math.sqrt(n); for (let c = 0; c < dimensions; c++) v[c] = v[c]! / n; vectors.push(v); }
const matrix = packVectors(vectors);
const starts = initializeKMeansPlusPlus(matrix, { k: 10, seed: 42 });
for (let i = 0; i < 6; i++) {
  let t = performance.now();
  const c0 = process.cpuUsage();
  const kernel = loadKMeansKernel(matrix, 10);
  const tLoad = performance.now() - t; t = performance.now();
  const cLoad = process.cpuUsage(c0);
  const r = runLloydKernel(kernel, matrix, starts.centroids, 10, 100, 1e-6);
  const tLloyd = performance.now() - t; t = performance.now();
  const cpu = process.cpuUsage(c0);
  const inertia = kernelInertia(kernel, dimensions, r.assignments, r.centroids);
  const tIn = performance.now() - t;
  console.log(`cpuLoad ${((cLoad.user + cLoad.system) / 1000).toFixed(0)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} load ${tLoad.toFixed(0)} lloyd ${tLloyd.toFixed(0)} inertia ${tIn.toFixed(0)} evals ${r.distanceEvaluations} exact ${r.exactResolutions} it ${r.iterations} ${inertia}`);
}
