import { writeFile } from 'node:fs/promises';
import type { Qrels, Run } from '@factkit/core';
import { readTextFile } from '@factkit/core/node';
import { type ParseQrelsOptions, parseQrels, parseRun } from './qrels-formats.js';
import { type FormatTrecRunOptions, formatTrecQrels, formatTrecRun } from './trec-format.js';

/** Writes a run as a TREC run file (`qid Q0 docno rank score tag`, ranked as trec_eval ranks it). */
export async function writeTrecRunFile(path: string, run: Run, options: FormatTrecRunOptions = {}): Promise<void> {
  await writeFile(path, formatTrecRun(run, options));
}

/** Writes qrels as a TREC qrels file (`qid 0 docno rel`, sorted). */
export async function writeTrecQrelsFile(path: string, qrels: Qrels): Promise<void> {
  await writeFile(path, formatTrecQrels(qrels));
}

/**
 * Reads qrels in any layout factkit accepts (TREC 4-column, BEIR TSV, pytrec_eval JSON; plain or gzip), detected
 * from the content unless `format` is given.
 * @throws CorruptDataError naming the file (and line) for malformed content; the file system's error when unreadable.
 */
export async function readQrelsFile(path: string, options: Omit<ParseQrelsOptions, 'source'> = {}): Promise<Qrels> {
  return parseQrels(await readTextFile(path), { ...options, source: path });
}

/**
 * Reads a run as a TREC run file or pytrec_eval JSON (plain or gzip), detected from the content.
 * @throws CorruptDataError naming the file (and line) for malformed content; the file system's error when unreadable.
 */
export async function readRunFile(path: string): Promise<Run> {
  return parseRun(await readTextFile(path), { source: path });
}
