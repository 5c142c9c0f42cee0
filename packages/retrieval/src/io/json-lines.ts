import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { assertNonEmptyString, CorruptDataError } from '@factkit/core';

export interface ReadJsonLinesOptions {
  readonly abortSignal?: AbortSignal;
}

export interface JsonLine {
  /** 1-based line number in the (decompressed) file. */
  readonly line: number;
  readonly value: unknown;
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(2);
    const { bytesRead } = await handle.read(buffer, 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Streams a JSONL file (gzip detected by its magic bytes) one parsed line at a time; blank lines and a UTF-8
 * byte-order mark are skipped.
 * Memory stays bounded by one line.
 * @throws CorruptDataError naming the file and line for invalid JSON, and for a gzip stream that ends early or is damaged.
 */
export async function* readJsonLines(path: string, options: ReadJsonLinesOptions = {}): AsyncGenerator<JsonLine> {
  const { abortSignal } = options;
  assertNonEmptyString('path', path, 'readJsonLines');
  abortSignal?.throwIfAborted();
  const gzip = await isGzip(path);
  const fileStream = createReadStream(path);
  const gunzip = gzip ? createGunzip() : undefined;
  let streamError: unknown;
  fileStream.on('error', (error) => {
    streamError ??= error;
  });
  const textStream = gunzip ? fileStream.pipe(gunzip) : fileStream;
  gunzip?.on('error', (error) => {
    streamError ??= error;
  });
  const lines = createInterface({ input: textStream, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const text of lines) {
      lineNumber++;
      if (abortSignal?.aborted) throw abortSignal.reason;
      if (streamError) break;
      // A UTF-8 byte-order mark before the first record is not part of it.
      const line = lineNumber === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      if (line.trim().length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (cause) {
        // A truncated gzip often ends mid-line: report the stream failure rather than the half line.
        if (streamError) break;
        throw new CorruptDataError({ source: `${path}:${lineNumber}`, message: 'is not valid JSON', cause });
      }
      yield { line: lineNumber, value };
    }
  } catch (error) {
    // readline re-throws errors of the input stream (gunzip, fs): turn those into CorruptDataError below.
    if (CorruptDataError.isInstance(error) || (abortSignal?.aborted && error === abortSignal.reason)) throw error;
    streamError ??= error;
  } finally {
    lines.close();
    fileStream.destroy();
    gunzip?.destroy();
  }
  if (streamError) {
    const code = (streamError as { code?: string }).code;
    const message = code === 'Z_BUF_ERROR' || /unexpected end/i.test(String((streamError as Error).message)) ? 'gzip stream ends early (truncated file)' : `could not be read (${String((streamError as Error).message)})`;
    throw new CorruptDataError({ source: path, message, cause: streamError });
  }
}
