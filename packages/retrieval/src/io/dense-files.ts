// Node file helpers for dense and hybrid indexes (the byte formats are browser-safe, in dense/dense-serialization.ts
// and bm25/bm25-serialization.ts).
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNonEmptyString, assertPositiveInteger, CorruptDataError, InvalidArgumentError } from '@factkit/core';
import type { Bm25Index } from '../bm25/bm25-index.js';
import { type DenseIndexSnapshot, deserializeDenseIndex, serializeDenseIndex } from '../dense/dense-serialization.js';
import { type FusionOptions, fuseScores } from '../fusion/fuse-scores.js';
import { loadBm25Index, saveBm25Index } from './bm25-files.js';

async function writeAtomically(path: string, bytes: Uint8Array | string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    // A failed write leaves nothing behind (e.g. `path` is a directory): no temporary file next to it.
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes a dense index snapshot to a file atomically (temporary file + rename).
 * @throws InvalidArgumentError for an empty path or a malformed snapshot.
 */
export async function saveDenseIndex(snapshot: DenseIndexSnapshot, path: string): Promise<void> {
  assertNonEmptyString('path', path, 'saveDenseIndex');
  await writeAtomically(path, serializeDenseIndex(snapshot));
}

/**
 * Reads a dense index written by {@link saveDenseIndex}.
 * @throws InvalidArgumentError when the file cannot be read; CorruptDataError naming the file when it is damaged.
 */
export async function loadDenseIndex(path: string): Promise<DenseIndexSnapshot> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new InvalidArgumentError({ where: 'loadDenseIndex', argument: 'path', message: `cannot be read (${path})`, cause });
  }
  return deserializeDenseIndex(bytes, { source: path });
}

/** File name of a hybrid index's manifest inside its folder. */
export const HYBRID_MANIFEST_FILE = 'manifest.json';

/** The manifest of a hybrid index folder: which files hold its parts and how their rankings are fused. */
export interface HybridIndexManifest {
  readonly format: 'factkit-hybrid';
  readonly version: 1;
  /** File of the BM25 part, relative to the folder. */
  readonly bm25: string;
  /** File of the dense part, relative to the folder. */
  readonly dense: string;
  readonly embedderId: string;
  readonly fusion: FusionOptions;
  /** Results asked of each part before fusing. */
  readonly candidateDepth: number;
}

export interface SaveHybridIndexOptions {
  readonly bm25: Bm25Index;
  readonly dense: DenseIndexSnapshot;
  /** @default { method: 'rrf', k: 60 } */
  readonly fusion?: FusionOptions;
  /** @default 100 */
  readonly candidateDepth?: number;
}

/**
 * Saves a hybrid index into `folder`: `bm25.index` (saveBm25Index), `dense.index` (saveDenseIndex) and
 * `manifest.json` (written last, so a folder with a manifest is complete). Each part is checksummed by its format.
 * @throws InvalidArgumentError for bad fusion options or candidateDepth.
 */
export async function saveHybridIndex(folder: string, options: SaveHybridIndexOptions): Promise<HybridIndexManifest> {
  const where = 'saveHybridIndex';
  const { bm25, dense, fusion = { method: 'rrf', k: 60 }, candidateDepth = 100 } = options;
  assertNonEmptyString('folder', folder, where);
  assertPositiveInteger('candidateDepth', candidateDepth, where);
  fuseScores([[], []], fusion);
  // JSON has no Infinity: an unlimited depth is written as "absent" (the default).
  const { depth, ...rest } = fusion;
  const savedFusion: FusionOptions = depth !== undefined && Number.isFinite(depth) ? { ...rest, depth } : rest;
  await mkdir(folder, { recursive: true });
  const manifest: HybridIndexManifest = { format: 'factkit-hybrid', version: 1, bm25: 'bm25.index', dense: 'dense.index', embedderId: dense.embedderId, fusion: savedFusion, candidateDepth };
  await saveBm25Index(bm25, join(folder, manifest.bm25));
  await saveDenseIndex(dense, join(folder, manifest.dense));
  await writeAtomically(join(folder, HYBRID_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** A loaded hybrid index: both parts and the fusion settings; build retrievers with createBm25Retriever, restoreDenseRetriever and createHybridRetriever. */
export interface LoadedHybridIndex {
  readonly manifest: HybridIndexManifest;
  readonly bm25: Bm25Index;
  readonly dense: DenseIndexSnapshot;
}

/**
 * Reads a hybrid index folder written by {@link saveHybridIndex}.
 * @throws InvalidArgumentError when the folder has no readable manifest; CorruptDataError naming the file when the
 * manifest or a part is malformed, or the parts disagree (embedder id).
 */
export async function loadHybridIndex(folder: string): Promise<LoadedHybridIndex> {
  const manifestPath = join(folder, HYBRID_MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch (cause) {
    throw new InvalidArgumentError({ where: 'loadHybridIndex', argument: 'folder', message: `has no readable ${HYBRID_MANIFEST_FILE} (${folder})`, cause });
  }
  const fail = (message: string): never => {
    throw new CorruptDataError({ source: manifestPath, message });
  };
  let manifest: HybridIndexManifest;
  try {
    manifest = JSON.parse(text) as HybridIndexManifest;
  } catch (cause) {
    throw new CorruptDataError({ source: manifestPath, message: 'is not valid JSON', cause });
  }
  if (typeof manifest !== 'object' || manifest === null || manifest.format !== 'factkit-hybrid') fail('is not a factkit hybrid-index manifest');
  if (manifest.version !== 1) fail(`has version ${String(manifest.version)}; this library reads version 1`);
  for (const part of ['bm25', 'dense'] as const) {
    const file = manifest[part];
    if (typeof file !== 'string' || file.length === 0 || file.includes('/') || file.includes('\\') || file.startsWith('.')) fail(`"${part}" must name a file inside the folder (got ${JSON.stringify(file)})`);
  }
  if (!Number.isInteger(manifest.candidateDepth) || manifest.candidateDepth < 1) fail(`"candidateDepth" must be an integer >= 1 (got ${String(manifest.candidateDepth)})`);
  try {
    fuseScores([[], []], manifest.fusion ?? {});
  } catch (cause) {
    throw new CorruptDataError({ source: manifestPath, message: `"fusion" is invalid: ${cause instanceof Error ? cause.message : String(cause)}`, cause });
  }
  const bm25 = await loadBm25Index(join(folder, manifest.bm25));
  const dense = await loadDenseIndex(join(folder, manifest.dense));
  if (dense.embedderId !== manifest.embedderId) fail(`says embedder "${String(manifest.embedderId)}" but ${manifest.dense} was embedded with "${dense.embedderId}"`);
  return { manifest, bm25, dense };
}
