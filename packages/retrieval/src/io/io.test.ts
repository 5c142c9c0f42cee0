import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createBm25Index } from '../bm25/bm25-index.js';
import { serializeBm25Index } from '../bm25/bm25-serialization.js';
import { computeCrc32, updateCrc32 } from '../internal/crc32.js';
import { findUnknownQrelsDocuments, loadBeirDataset, parseBeirQrels, streamBeirCorpus } from './beir.js';
import { buildBm25IndexFromJsonl, loadBm25Index, saveBm25Index } from './bm25-files.js';
import { readJsonLines } from './json-lines.js';

const directory = mkdtempSync(join(tmpdir(), 'factkit-bm25-io-'));
const fixture = new URL('../../test/fixtures/tiny-beir/', import.meta.url).pathname;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('JSONL and BEIR loaders', () => {
  it('streams plain and gzip JSONL the same way', async () => {
    const text = readFileSync(join(fixture, 'corpus.jsonl'));
    const gz = join(directory, 'corpus.jsonl.gz');
    writeFileSync(gz, gzipSync(text));
    const plain = await collect(streamBeirCorpus(join(fixture, 'corpus.jsonl')));
    expect(await collect(streamBeirCorpus(gz))).toEqual(plain);
    expect(plain.map((document) => document.id)).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(plain[3]).toEqual({ id: 'd4', text: 'Fish swim; cats watch fish.' });
  });
  it('reports a gzip that ends early as CorruptDataError naming the file', async () => {
    const big = Array.from({ length: 3000 }, (_, index) => JSON.stringify({ _id: `d${index}`, text: `document number ${index} `.repeat(5) })).join('\n');
    const compressed = gzipSync(big);
    const truncated = join(directory, 'truncated.jsonl.gz');
    writeFileSync(truncated, compressed.subarray(0, Math.floor(compressed.length / 2)));
    await expect(collect(readJsonLines(truncated))).rejects.toSatisfy((error: unknown) => CorruptDataError.isInstance(error) && /truncated\.jsonl\.gz: gzip stream ends early/.test((error as Error).message));
    await expect(buildBm25IndexFromJsonl(truncated)).rejects.toThrow(/ends early/);
  });
  it('names file and line for invalid JSON and for records without an id', async () => {
    const bad = join(directory, 'bad.jsonl');
    writeFileSync(bad, '{"_id": "a", "text": "x"}\n{not json}\n');
    await expect(collect(readJsonLines(bad))).rejects.toThrow(/bad\.jsonl:2: is not valid JSON/);
    writeFileSync(bad, '{"_id": "a", "text": "x"}\n\n{"text": "no id"}\n');
    await expect(collect(streamBeirCorpus(bad))).rejects.toThrow(/bad\.jsonl:3: has no "_id"/);
  });
  it('builds an index from a stream and rejects duplicate ids in the corpus', async () => {
    const { index } = await buildBm25IndexFromJsonl(join(fixture, 'corpus.jsonl'));
    expect(index.search('cat purr').hits[0]?.id).toBe('d1');
    const duplicated = join(directory, 'dup.jsonl');
    writeFileSync(duplicated, '{"_id": "a", "text": "x"}\n{"_id": "a", "text": "y"}\n');
    await expect(buildBm25IndexFromJsonl(duplicated)).rejects.toThrow(/duplicate document id "a"/);
    const skipped = await buildBm25IndexFromJsonl(duplicated, { onDuplicate: 'skip' });
    expect(skipped.problems).toMatchObject([{ code: 'duplicate-id', id: 'a', index: 1 }]);
  });
  it('reports streaming progress as core Progress: total = documents read so far, and a final call with the count', async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, i) => `{"_id": "d${i}", "text": "word${i}"}\n`).join('');
    const progressOf = async (count: number) => {
      const path = join(directory, `progress-${count}.jsonl`);
      writeFileSync(path, lines(count));
      const calls: unknown[] = [];
      await buildBm25IndexFromJsonl(path, { progressEvery: 10, onProgress: (progress) => calls.push(progress) });
      return calls;
    };
    expect(await progressOf(25)).toEqual([
      { completed: 10, total: 10 },
      { completed: 20, total: 20 },
      { completed: 25, total: 25 },
    ]);
    expect(await progressOf(20)).toEqual([
      { completed: 10, total: 10 },
      { completed: 20, total: 20 },
    ]);
    expect(await progressOf(0)).toEqual([{ completed: 0, total: 0 }]);
  });
  it('parses qrels and reports malformed lines', () => {
    expect(parseBeirQrels('query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n')).toEqual({ q1: { d1: 1, d2: 0 } });
    expect(() => parseBeirQrels('q1\td1\n', { source: 'q.tsv' })).toThrow(/q\.tsv:1: has 2 columns/);
    expect(() => parseBeirQrels('q1\td1\tyes\n')).toThrow(/not an integer/);
  });
  it('loads a BEIR folder: unknown query ids and unknown documents become problems', async () => {
    const dataset = await loadBeirDataset(fixture);
    expect(dataset.queries.map((query) => query.id)).toEqual(['q1', 'q2', 'q3']);
    expect(dataset.problems).toMatchObject([{ id: 'q9', code: 'unknown-query' }]);
    const index = createBm25Index({
      documents: [
        { id: 'd1', text: 'x' },
        { id: 'd2', text: 'x' },
        { id: 'd3', text: 'x' },
      ],
    });
    expect(findUnknownQrelsDocuments(dataset.qrels, (id) => index.hasDocument(id))).toMatchObject([{ id: 'q3', code: 'unknown-document' }]);
    await expect(loadBeirDataset(directory)).rejects.toThrow(InvalidArgumentError);
  });
});

describe('index and run files', () => {
  it('saves and loads an index; a truncated file is CorruptDataError naming the path', async () => {
    const index = createBm25Index({
      documents: [
        { id: 'a', text: 'cats purr' },
        { id: 'b', text: 'dogs bark' },
      ],
    });
    const path = join(directory, 'index.bm25');
    await saveBm25Index(index, path);
    const loaded = await loadBm25Index(path);
    expect(loaded.search('cat').hits).toEqual(index.search('cat').hits);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 3));
    await expect(loadBm25Index(path)).rejects.toSatisfy((error: unknown) => CorruptDataError.isInstance(error) && (error as Error).message.startsWith(path));
    await expect(loadBm25Index(join(directory, 'missing.bm25'))).rejects.toThrow(InvalidArgumentError);
  });
});

describe('streaming index files', () => {
  const word = fc.constantFrom('cell', 'cells', 'atp', 'tumour', 'divide', 'mitosis', 'z', 'q');
  const documentsArbitrary = fc.uniqueArray(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      text: fc.array(word, { maxLength: 12 }).map((words) => words.join(' ')),
      title: fc.option(
        fc.array(word, { maxLength: 3 }).map((words) => words.join(' ')),
        { nil: undefined },
      ),
    }),
    { selector: (document) => document.id, minLength: 1, maxLength: 25 },
  );
  const options = fc.record({ weighted: fc.boolean(), storeDocuments: fc.boolean(), longDocument: fc.boolean() });

  it('updateCrc32 continues a CRC over split input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (left, right) => {
        const joined = new Uint8Array([...left, ...right]);
        expect(updateCrc32(computeCrc32(left), right)).toBe(computeCrc32(joined));
      }),
    );
  });

  it('saveBm25Index writes exactly serializeBm25Index bytes; both files load to the same index', async () => {
    const path = join(directory, 'streamed.bm25');
    const serializedPath = join(directory, 'serialized.bm25');
    await fc.assert(
      fc.asyncProperty(documentsArbitrary, options, async (documents, { weighted, storeDocuments, longDocument }) => {
        const all = longDocument ? [...documents, { id: '\u0000long', text: 'cell '.repeat(300) }] : documents;
        const index = createBm25Index({ documents: all, storeDocuments, ...(weighted ? { fields: { title: 2, text: 1 } } : {}) });
        await saveBm25Index(index, path);
        const expected = serializeBm25Index(index);
        expect(new Uint8Array(readFileSync(path))).toEqual(expected);
        writeFileSync(serializedPath, expected);
        for (const file of [path, serializedPath]) {
          const loaded = await loadBm25Index(file);
          for (const query of ['cell', 'atp divide', 'tumour mitosis q']) expect(loaded.search(query, { topK: 30 }).hits).toEqual(index.search(query, { topK: 30 }).hits);
          // Same content statistics; the spare room behind the postings arrays depends on how they were allocated
          // (grown by merges vs read from a file), not on the index.
          const withoutReserve = ({ reservedBytes: _reserve, ...rest }: ReturnType<typeof index.statistics>) => rest;
          expect(withoutReserve(loaded.statistics())).toEqual(withoutReserve(index.statistics()));
          expect(serializeBm25Index(loaded)).toEqual(expected);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a damaged byte anywhere in a file is CorruptDataError naming the path', async () => {
    const index = createBm25Index({
      documents: [
        { id: 'a', title: 'Cell biology', text: 'cells divide by mitosis' },
        { id: 'b', text: 'mitochondria produce atp' },
      ],
    });
    const path = join(directory, 'damaged.bm25');
    const bytes = serializeBm25Index(index);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (position, mask) => {
        const damaged = bytes.slice();
        damaged[position] = (damaged[position] as number) ^ mask;
        writeFileSync(path, damaged);
        await expect(loadBm25Index(path)).rejects.toSatisfy((error: unknown) => CorruptDataError.isInstance(error) && (error as Error).message.startsWith(path));
      }),
      { numRuns: 150 },
    );
    writeFileSync(path, new Uint8Array([...bytes, 0]));
    await expect(loadBm25Index(path)).rejects.toThrow(/trailing data/);
  });
});
