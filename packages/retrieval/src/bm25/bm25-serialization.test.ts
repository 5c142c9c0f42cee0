import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createChineseAnalyzer } from '../analysis/analyzer.js';
import { createBm25Index } from './bm25-index.js';
import { computeCrc32 } from '../internal/crc32.js';
import { deserializeBm25Index, exportBm25IndexJson, importBm25IndexJson, serializeBm25Index } from './bm25-serialization.js';

const documents = [
  { id: 'a', title: 'Cell biology', text: 'Cells divide by mitosis; the cell cycle is regulated.' },
  { id: 'b', text: 'Mitochondria produce ATP in cells.' },
  { id: 'c', text: 'Tumour cells divide quickly. '.repeat(20) },
];
const queries = ['cell division', 'ATP mitochondria', 'tumour cycle'];

function expectSameSearch(left: ReturnType<typeof createBm25Index>, right: ReturnType<typeof createBm25Index>): void {
  for (const query of queries) expect(right.search(query).hits).toEqual(left.search(query).hits);
}

describe('binary index format', () => {
  it('round-trips: same hits, same stored documents, same parameters', () => {
    const index = createBm25Index({ documents, k1: 1.2, b: 0.75 });
    const loaded = deserializeBm25Index(serializeBm25Index(index));
    expectSameSearch(index, loaded);
    expect(loaded.getDocument('a')).toEqual(documents[0]);
    expect(loaded.parameters).toEqual(index.parameters);
    loaded.addDocument({ id: 'd', text: 'cells' });
    expect(loaded.search('cells').hits.length).toBe(4);
  });
  it('round-trips field-weighted, CJK and document-less indexes', () => {
    const fielded = createBm25Index({ documents, fields: { title: 2, text: 1 }, storeDocuments: false });
    const loaded = deserializeBm25Index(serializeBm25Index(fielded));
    expectSameSearch(fielded, loaded);
    expect(loaded.getDocument('a')).toBeUndefined();
    const chinese = createBm25Index({ analyzer: createChineseAnalyzer(), documents: [{ id: 'z', text: '事实核查方法' }] });
    expect(deserializeBm25Index(serializeBm25Index(chinese)).search('核查').hits.map((hit) => hit.id)).toEqual(['z']);
  });
  it('computes the standard CRC-32', () => {
    expect(computeCrc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
  it('rejects truncated, damaged, foreign and future-version files with CorruptDataError', () => {
    const bytes = serializeBm25Index(createBm25Index({ documents }));
    const expectCorrupt = (data: Uint8Array, pattern: RegExp) => {
      try {
        deserializeBm25Index(data, { source: 'x.bm25' });
        expect.unreachable('should throw');
      } catch (error) {
        expect(CorruptDataError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(/^x\.bm25: /);
        expect((error as Error).message).toMatch(pattern);
      }
    };
    expectCorrupt(bytes.subarray(0, bytes.length - 100), /truncated/);
    expectCorrupt(bytes.subarray(0, 10), /truncated/);
    const flipped = bytes.slice();
    flipped[200] = (flipped[200] as number) ^ 0xff;
    expectCorrupt(flipped, /checksum/);
    const foreign = bytes.slice();
    foreign[0] = 0x50;
    expectCorrupt(foreign, /magic/);
    const future = bytes.slice();
    new DataView(future.buffer).setUint32(8, 99, true);
    expectCorrupt(future, /version 99/);
  });
  it('rejects a well-checksummed file whose postings are inconsistent (never silently wrong scores)', () => {
    const bytes = serializeBm25Index(createBm25Index({ documents, storeDocuments: false })).slice();
    const view = new DataView(bytes.buffer);
    const headerLength = view.getUint32(12, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + headerLength))) as { sections: { name: string; offset: number }[] };
    const dataStart = (16 + headerLength + 7) & ~7;
    const docs = header.sections.find((section) => section.name === 'field0.postingDocs') as { offset: number };
    view.setUint32(dataStart + docs.offset, 999, true); // a posting pointing past the last document
    view.setUint32(bytes.length - 8, computeCrc32(bytes.subarray(0, bytes.length - 8)), true);
    expect(() => deserializeBm25Index(bytes)).toThrow(/out of order or out of range/);
  });
  it('never crashes on random damage: it loads an equal index or throws CorruptDataError', () => {
    const bytes = serializeBm25Index(createBm25Index({ documents }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), (position, mask) => {
        const damaged = bytes.slice();
        damaged[position] = (damaged[position] as number) ^ mask;
        expect(() => deserializeBm25Index(damaged)).toThrow(CorruptDataError);
      }),
      { numRuns: 200 },
    );
  });
  it('needs the custom analyzer back, with the same id', () => {
    const custom = { id: 'split', analyze: (text: string) => text.split(' ') };
    const bytes = serializeBm25Index(createBm25Index({ analyzer: custom, documents: [{ id: 'a', text: 'x y' }] }));
    expect(() => deserializeBm25Index(bytes)).toThrow(InvalidArgumentError);
    expect(() => deserializeBm25Index(bytes, { analyzer: { ...custom, id: 'other' } })).toThrow(/"analyzer"/);
    expect(deserializeBm25Index(bytes, { analyzer: custom }).search('x').hits[0]?.id).toBe('a');
  });
});

describe('JSON export', () => {
  it('is plain JSON and imports back to the same index', () => {
    const index = createBm25Index({ documents });
    const json = JSON.parse(JSON.stringify(exportBm25IndexJson(index)));
    expect(json.format).toBe('factkit-bm25-json');
    expect(json.fields[0].postings.atp).toEqual([[1, 1]]);
    expectSameSearch(index, importBm25IndexJson(json));
  });
  it('rejects inconsistent JSON', () => {
    const json = exportBm25IndexJson(createBm25Index({ documents }));
    expect(() => importBm25IndexJson({ ...json, version: 2 as 1 })).toThrow(CorruptDataError);
    const broken = { ...json, fields: [{ ...json.fields[0], lengths: [1, 1, 1] }] } as typeof json;
    expect(() => importBm25IndexJson(broken)).toThrow(/more term occurrences than its length/);
  });
});
