import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { CorruptDataError } from '../errors/factkit-error.js';

/**
 * A UTF-8 text file, gunzipped when it starts with the gzip magic bytes (`.gz` or not): how every factkit reader of
 * qrels, runs and corpora opens a file.
 * @throws CorruptDataError naming the file when the gzip stream is damaged; the file system's error when unreadable.
 */
export async function readTextFile(path: string): Promise<string> {
  let bytes = await readFile(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (cause) {
      throw new CorruptDataError({ source: path, message: 'gzip stream is damaged or ends early', cause });
    }
  }
  return bytes.toString('utf8');
}
