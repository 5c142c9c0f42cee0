import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createChineseAnalyzer } from '../analysis/analyzer.js';
import { createBm25Index } from './bm25-index.js';
import { computeCrc32 } from '../internal/crc32.js';
import { readFileSync } from 'node:fs';
import { encodeSectionContainer } from '../internal/section-container.js';
import { BM25_INDEX_FORMAT_VERSION, BM25_INDEX_MAGIC, deserializeBm25Index, exportBm25IndexJson, importBm25IndexJson, serializeBm25Index } from './bm25-serialization.js';
import { getIndexState } from './index-state.js';

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
    expect(
      deserializeBm25Index(serializeBm25Index(chinese))
        .search('核查')
        .hits.map((hit) => hit.id),
    ).toEqual(['z']);
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

/** Header and sections of serialized bytes (for surgery in tests). */
function sectionsOf(bytes: Uint8Array): { header: Record<string, unknown> & { sections: { name: string; kind: string; offset: number; byteLength: number }[] }; dataStart: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(12, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + headerLength)));
  return { header, dataStart: (16 + headerLength + 7) & ~7 };
}

/** Re-frames an index's bytes as `version` with the given sections (the CRC recomputed): a well-formed file of that shape. */
function reframe(bytes: Uint8Array, version: number, edit: (sections: { name: string; kind: string; bytes: Uint8Array }[]) => { name: string; kind: string; bytes: Uint8Array }[]): Uint8Array {
  const { header, dataStart } = sectionsOf(bytes);
  const payloads = header.sections.map((section) => ({ name: section.name, kind: section.kind, bytes: bytes.slice(dataStart + section.offset, dataStart + section.offset + section.byteLength) }));
  const { sections: _ignored, ...rest } = header;
  return encodeSectionContainer(BM25_INDEX_MAGIC, version, rest, edit(payloads));
}

describe('document ids (format version 2: code units + offsets)', () => {
  const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url)));
  const golden = JSON.parse(readFileSync(new URL('../../test/fixtures/bm25-format-v1.expected.json', import.meta.url), 'utf8')) as {
    queries: string[];
    fielded: Record<string, unknown>;
    flat: Record<string, unknown>;
    flatDocuments: unknown[];
  };
  it('writes version 2 with ids as typed sections, one byte a unit for Latin-1 ids, two bytes otherwise', () => {
    expect(BM25_INDEX_FORMAT_VERSION).toBe(2);
    const latin = serializeBm25Index(
      createBm25Index({
        documents: [
          { id: 'doc1', text: 'x' },
          { id: 'café', text: 'y' },
        ],
      }),
    );
    expect(new DataView(latin.buffer).getUint32(8, true)).toBe(2);
    const { header, dataStart } = sectionsOf(latin);
    const units = header.sections.find((section) => section.name === 'ids.units');
    const offsets = header.sections.find((section) => section.name === 'ids.offsets');
    expect(units).toMatchObject({ kind: 'u8', byteLength: 8 });
    expect(offsets).toMatchObject({ kind: 'u32', byteLength: 12 });
    expect(Array.from(latin.subarray(dataStart + (units?.offset ?? 0), dataStart + (units?.offset ?? 0) + 8))).toEqual([...'doc1café'].map((character) => character.charCodeAt(0)));
    expect(header.sections.some((section) => section.name === 'ids')).toBe(false);
    const wide = serializeBm25Index(
      createBm25Index({
        documents: [
          { id: 'doc1', text: 'x' },
          { id: '核查😀', text: 'y' },
        ],
      }),
    );
    expect(sectionsOf(wide).header.sections.find((section) => section.name === 'ids.units')).toMatchObject({ kind: 'u16', byteLength: 16 });
  });
  it('round-trips any ids (unicode, lone surrogates, long), after removals and re-adds, byte for byte', () => {
    const anyId = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), fc.constantFrom('\ud800', 'x\udfff', 'é'.repeat(5000)));
    fc.assert(
      fc.property(fc.uniqueArray(anyId, { minLength: 1, maxLength: 25 }), fc.array(fc.nat(), { maxLength: 6 }), (ids, removals) => {
        const index = createBm25Index({ documents: ids.map((id, position) => ({ id, text: position % 2 ? 'cells divide' : 'cells' })), storeDocuments: false });
        for (const removal of removals) index.removeDocument(ids[removal % ids.length] as string);
        const kept = ids.filter((id) => index.hasDocument(id));
        const bytes = serializeBm25Index(index);
        const loaded = deserializeBm25Index(bytes);
        expect(getIndexState(loaded, 'test').ids.toArray()).toEqual(kept);
        for (const id of ids) expect(loaded.hasDocument(id)).toBe(kept.includes(id));
        expect(loaded.search('cells', { topK: 100 }).hits).toEqual(index.search('cells', { topK: 100 }).hits);
        expect(serializeBm25Index(loaded)).toEqual(bytes);
        loaded.addDocument({ id: 'new', text: 'cells' }, { onDuplicate: 'replace' });
        expect(
          loaded
            .search('cells', { topK: 100 })
            .hits.map((hit) => hit.id)
            .sort(),
        ).toEqual([...new Set([...kept, 'new'])].sort());
      }),
      { numRuns: 60 },
    );
  });
  it('round-trips an empty index, which then takes ids of either width', () => {
    const loaded = deserializeBm25Index(serializeBm25Index(createBm25Index()));
    expect(loaded.documentCount).toBe(0);
    loaded.addDocuments([
      { id: 'doc', text: 'cells' },
      { id: 'é核', text: 'cells divide' },
    ]);
    expect(
      loaded
        .search('cells')
        .hits.map((hit) => hit.id)
        .sort(),
    ).toEqual(['doc', 'é核']);
    expect(
      deserializeBm25Index(serializeBm25Index(loaded))
        .search('divide')
        .hits.map((hit) => hit.id),
    ).toEqual(['é核']);
  });
  it('still loads version 1 files (ids as JSON), written by the previous release: same hits, documents and ids', () => {
    for (const [name, expected] of [
      ['bm25-format-v1.bm25', golden.fielded],
      ['bm25-format-v1-flat.bm25', golden.flat],
    ] as const) {
      const bytes = fixture(name);
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)).toBe(1);
      const loaded = deserializeBm25Index(bytes);
      for (const query of golden.queries) expect(loaded.search(query).hits).toEqual(expected[query]);
      // Re-saved in the current version, it loads to the same index.
      const resaved = deserializeBm25Index(serializeBm25Index(loaded));
      for (const query of golden.queries) expect(resaved.search(query).hits).toEqual(expected[query]);
    }
    const flat = deserializeBm25Index(fixture('bm25-format-v1-flat.bm25'));
    expect(['a', 'b', 'c', 'café-é', '核查-😀'].map((id) => flat.getDocument(id))).toEqual(golden.flatDocuments);
  });
  it('rejects a well-checksummed file whose ids are duplicated, inconsistent or of a bad type', () => {
    const bytes = serializeBm25Index(
      createBm25Index({
        documents: [
          { id: 'ab', text: 'x' },
          { id: 'ac', text: 'y' },
        ],
        storeDocuments: false,
      }),
    );
    const replace = (name: string, make: (old: Uint8Array) => { kind?: string; bytes: Uint8Array }) => reframe(bytes, 2, (sections) => sections.map((section) => (section.name === name ? { ...section, ...make(section.bytes) } : section)));
    expect(() => deserializeBm25Index(replace('ids.units', () => ({ bytes: new Uint8Array([97, 98, 97, 98]) })))).toThrow(/not unique \("ab" repeats\)/);
    expect(() => deserializeBm25Index(replace('ids.units', () => ({ bytes: new Uint8Array([97, 98, 97]) })))).toThrow(/do not span/);
    expect(() => deserializeBm25Index(replace('ids.offsets', () => ({ bytes: new Uint8Array(new Uint32Array([0, 2, 2, 4]).buffer) })))).toThrow(/4 id offsets for 2 documents/);
    expect(() => deserializeBm25Index(replace('ids.offsets', () => ({ bytes: new Uint8Array(new Uint32Array([0, 3, 2]).buffer) })))).toThrow(/do not span|out-of-order/);
    expect(() => deserializeBm25Index(replace('ids.units', (old) => ({ kind: 'u32', bytes: old })))).toThrow(CorruptDataError);
    expect(() => deserializeBm25Index(reframe(bytes, 2, (sections) => sections.filter((section) => section.name !== 'ids.offsets')))).toThrow(/section "ids.offsets" is missing/);
    // A version-1 file with duplicated JSON ids.
    const v1 = reframe(bytes, 1, (sections) => [...sections.filter((section) => !section.name.startsWith('ids.')), { name: 'ids', kind: 'json', bytes: new TextEncoder().encode('["ab","ab"]') }]);
    expect(() => deserializeBm25Index(v1)).toThrow(/not unique/);
    const v1Good = reframe(bytes, 1, (sections) => [...sections.filter((section) => !section.name.startsWith('ids.')), { name: 'ids', kind: 'json', bytes: new TextEncoder().encode('["ab","ac"]') }]);
    expect(
      deserializeBm25Index(v1Good)
        .search('x')
        .hits.map((hit) => hit.id),
    ).toEqual(['ab']);
    expect(() => deserializeBm25Index(reframe(bytes, 3, (sections) => sections))).toThrow(/has format version 3; this library reads versions 1 and 2/);
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
    expect(() => importBm25IndexJson({ ...json, ids: ['a', 'a', 'c'] })).toThrow(/not unique \("a" repeats\)/);
    expect(() => importBm25IndexJson({ ...json, ids: ['a', 7, 'c'] as unknown as string[] })).toThrow(/not all strings/);
    const broken = { ...json, fields: [{ ...json.fields[0], lengths: [1, 1, 1] }] } as typeof json;
    expect(() => importBm25IndexJson(broken)).toThrow(/more term occurrences than its length/);
  });
});
