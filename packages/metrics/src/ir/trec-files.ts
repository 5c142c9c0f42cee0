import { readFile, writeFile } from 'node:fs/promises';
import type { Qrels, Run } from '@factkit/core';
import { type FormatTrecRunOptions, formatTrecQrels, formatTrecRun, parseTrecQrels, parseTrecRun } from './trec-format.js';

/** Writes a run as a TREC run file (`qid Q0 docno rank score tag`, ranked as trec_eval ranks it). */
export async function writeTrecRunFile(path: string, run: Run, options: FormatTrecRunOptions = {}): Promise<void> {
  await writeFile(path, formatTrecRun(run, options));
}

/**
 * Reads a TREC run file.
 * @throws CorruptDataError naming the file and line for malformed rows; the file system's error when it cannot be read.
 */
export async function readTrecRunFile(path: string): Promise<Run> {
  return parseTrecRun(await readFile(path, 'utf8'), { source: path });
}

/** Writes qrels as a TREC qrels file (`qid 0 docno rel`, sorted). */
export async function writeTrecQrelsFile(path: string, qrels: Qrels): Promise<void> {
  await writeFile(path, formatTrecQrels(qrels));
}

/**
 * Reads a TREC qrels file (`qid iter docno rel`).
 * @throws CorruptDataError naming the file and line for malformed rows; the file system's error when it cannot be read.
 */
export async function readTrecQrelsFile(path: string): Promise<Qrels> {
  return parseTrecQrels(await readFile(path, 'utf8'), { source: path });
}
