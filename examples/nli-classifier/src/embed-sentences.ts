/**
 * Embeds every distinct premise and hypothesis of output/pairs.jsonl with USE-lite (@factkit/use-lite, 512-d, offline)
 * and caches the vectors in .cache/use-lite-sentences.bin (gitignored), keyed by the SHA-256 of the text, so a rerun of
 * train-all only embeds sentences it has not seen (USE-lite embeds ~30 sentences/s on this shared machine).
 * The cache is a plain concatenation of records: 32-byte key, then 512 float32.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUseLiteEmbedder, USE_LITE_DIMENSIONS } from '@factkit/use-lite';
import type { LabelledPair } from './shared.js';
import { CACHE_DIR, OUTPUT_DIR, readJsonl } from './shared.js';

export const USE_LITE_CACHE = join(CACHE_DIR, 'use-lite-sentences.bin');
const RECORD = 32 + 4 * USE_LITE_DIMENSIONS;
const keyOf = (text: string) => createHash('sha256').update(text).digest();

/** Reads the cache into a map from text key (hex) to vector. */
export function readUseLiteCache(): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (!existsSync(USE_LITE_CACHE)) return out;
  const buffer = readFileSync(USE_LITE_CACHE);
  for (let at = 0; at + RECORD <= buffer.length; at += RECORD) {
    const key = buffer.subarray(at, at + 32).toString('hex');
    const copy = new Uint8Array(buffer.subarray(at + 32, at + RECORD));
    out.set(key, new Float32Array(copy.buffer));
  }
  return out;
}

/** Looks a text up in a cache map. */
export const cachedVector = (cache: ReadonlyMap<string, Float32Array>, text: string) => cache.get(keyOf(text).toString('hex'));

if (process.argv[1]?.endsWith('embed-sentences.ts')) {
  const started = Date.now();
  const pairs = readJsonl<LabelledPair>(join(OUTPUT_DIR, 'pairs.jsonl'));
  const cache = readUseLiteCache();
  const texts = [...new Set(pairs.flatMap((pair) => [pair.premise, pair.hypothesis]))].filter((text) => !cache.has(keyOf(text).toString('hex')));
  process.stdout.write(`${cache.size} sentences cached, ${texts.length} to embed with USE-lite\n`);
  mkdirSync(CACHE_DIR, { recursive: true });
  const embedder = createUseLiteEmbedder({ backend: 'auto' }); // onnx when onnxruntime-node loads, else wasm
  const CHUNK = 64;
  for (let start = 0; start < texts.length; start += CHUNK) {
    const chunk = texts.slice(start, start + CHUNK);
    const { embeddings } = await embedder.embed({ texts: chunk, kind: 'passage' });
    const parts: Buffer[] = [];
    chunk.forEach((text, index) => {
      const vector = embeddings[index];
      if (!vector || vector.length !== USE_LITE_DIMENSIONS) throw new Error(`USE-lite returned no vector for sentence ${start + index}`);
      parts.push(keyOf(text), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
    });
    appendFileSync(USE_LITE_CACHE, Buffer.concat(parts));
    const done = Math.min(start + CHUNK, texts.length);
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`\r${done}/${texts.length} embedded (${(done / seconds).toFixed(1)}/s)`);
  }
  process.stdout.write(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  await (embedder as { dispose?: () => Promise<void> | void }).dispose?.();
}
