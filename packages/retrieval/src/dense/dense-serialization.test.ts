import fc from 'fast-check';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { computeCrc32 } from '../internal/crc32.js';
import { type DenseIndexSnapshot, DENSE_INDEX_FORMAT_VERSION, deserializeDenseIndex, restoreDenseRetriever, serializeDenseIndex, snapshotFlatIndex } from './dense-serialization.js';
import { createFlatIndex } from './flat-index.js';

const finiteFloat = fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

/** Random snapshots: unique ids (any Unicode), any dimension 1..9, both metrics, with or without stored documents. */
const snapshotArbitrary: fc.Arbitrary<DenseIndexSnapshot> = fc
  .record({
    embedderId: fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }),
    dimensions: fc.integer({ min: 1, max: 9 }),
    metric: fc.constantFrom('cosine' as const, 'inner-product' as const),
    ids: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), { maxLength: 20 }),
    withDocuments: fc.boolean(),
  })
  .chain(({ embedderId, dimensions, metric, ids, withDocuments }) =>
    fc
      .record({
        floats: fc.array(finiteFloat, { minLength: ids.length * dimensions, maxLength: ids.length * dimensions }),
        documents: fc.array(fc.option(fc.record({ text: fc.string({ unit: 'grapheme' }), title: fc.option(fc.string(), { nil: undefined }) }, { requiredKeys: ['text'] }), { nil: null }), {
          minLength: ids.length,
          maxLength: ids.length,
        }),
      })
      .map(({ floats, documents }) => ({
        embedderId,
        dimensions,
        metric,
        ids,
        vectors: Float32Array.from(floats),
        ...(withDocuments ? { documents: documents.map((document) => (document === null ? null : JSON.parse(JSON.stringify(document)))) } : {}),
      })),
  );

describe('dense index serialization', () => {
  it('round-trips any snapshot exactly (ids, every float bit, metric, embedder, documents)', () => {
    fc.assert(
      fc.property(snapshotArbitrary, (snapshot) => {
        const bytes = serializeDenseIndex(snapshot);
        const loaded = deserializeDenseIndex(bytes);
        expect(loaded.embedderId).toBe(snapshot.embedderId);
        expect(loaded.dimensions).toBe(snapshot.dimensions);
        expect(loaded.metric).toBe(snapshot.metric);
        expect(loaded.ids).toEqual(snapshot.ids);
        // Bit-exact, including -0.
        expect(new Uint32Array(loaded.vectors.buffer, loaded.vectors.byteOffset, loaded.vectors.length)).toEqual(new Uint32Array(snapshot.vectors.buffer, snapshot.vectors.byteOffset, snapshot.vectors.length));
        expect(loaded.documents).toEqual(snapshot.documents);
        // Deterministic: serializing the loaded snapshot gives the same bytes.
        expect(serializeDenseIndex(loaded)).toEqual(bytes);
      }),
      { numRuns: 150 },
    );
  });

  it('reads from a Uint8Array at any offset of a larger buffer (vectors are copied to an aligned buffer)', () => {
    const snapshot: DenseIndexSnapshot = { embedderId: 'e', dimensions: 3, metric: 'cosine', ids: ['a', 'b'], vectors: new Float32Array([1, 2, 3, 4, 5, 6]) };
    const bytes = serializeDenseIndex(snapshot);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    expect(Array.from(deserializeDenseIndex(padded.subarray(3)).vectors)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('any single damaged byte is CorruptDataError naming the source, never a silently different index', () => {
    const snapshot: DenseIndexSnapshot = {
      embedderId: 'use-lite',
      dimensions: 4,
      metric: 'cosine',
      ids: ['a', 'b', 'c'],
      vectors: Float32Array.from({ length: 12 }, (_, i) => i / 7),
      documents: [{ text: 'x' }, null, { text: 'z', title: 't' }],
    };
    const bytes = serializeDenseIndex(snapshot);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), (position, mask) => {
        const damaged = bytes.slice();
        damaged[position] = (damaged[position] as number) ^ mask;
        expect(() => deserializeDenseIndex(damaged, { source: 'x.dense' })).toThrow(/^x\.dense: /);
        expect(() => deserializeDenseIndex(damaged)).toThrow(CorruptDataError);
      }),
      { numRuns: 300 },
    );
    expect(() => deserializeDenseIndex(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated or has trailing data/);
    expect(() => deserializeDenseIndex(new Uint8Array(10))).toThrow(/truncated/);
  });

  it('rejects another version and a well-checksummed file whose shape is wrong', () => {
    const bytes = serializeDenseIndex({ embedderId: 'e', dimensions: 2, metric: 'cosine', ids: ['a'], vectors: new Float32Array([1, 0]) }).slice();
    const view = new DataView(bytes.buffer);
    view.setUint32(8, DENSE_INDEX_FORMAT_VERSION + 1, true);
    view.setUint32(bytes.length - 8, computeCrc32(bytes.subarray(0, bytes.length - 8)), true);
    expect(() => deserializeDenseIndex(bytes)).toThrow(/has format version 2; this library reads version 1/);
    // A NaN written into the vectors with a valid checksum: caught by the shape check.
    const nan = serializeDenseIndex({ embedderId: 'e', dimensions: 2, metric: 'cosine', ids: ['a'], vectors: new Float32Array([1, 0]) }).slice();
    const nanView = new DataView(nan.buffer);
    const headerLength = nanView.getUint32(12, true);
    const header = JSON.parse(new TextDecoder().decode(nan.subarray(16, 16 + headerLength))) as { sections: { name: string; offset: number }[] };
    const dataStart = (16 + headerLength + 7) & ~7;
    nanView.setFloat32(dataStart + (header.sections.find((s) => s.name === 'vectors') as { offset: number }).offset, Number.NaN, true);
    nanView.setUint32(nan.length - 8, computeCrc32(nan.subarray(0, nan.length - 8)), true);
    expect(() => deserializeDenseIndex(nan)).toThrow(/vectors row 0 \("a"\) has a non-finite value/);
  });

  it('refuses to write a malformed snapshot, naming the field', () => {
    const base: DenseIndexSnapshot = { embedderId: 'e', dimensions: 2, metric: 'cosine', ids: ['a', 'b'], vectors: new Float32Array(4) };
    expect(() => serializeDenseIndex({ ...base, ids: ['a', 'a'] })).toThrow(/"ids\[1\]" duplicates id "a"/);
    expect(() => serializeDenseIndex({ ...base, vectors: new Float32Array(3) })).toThrow(/"vectors" has 3 floats; 2 ids × 2 dimensions need 4/);
    expect(() => serializeDenseIndex({ ...base, embedderId: '' })).toThrow(InvalidArgumentError);
    expect(() => serializeDenseIndex({ ...base, documents: [{ text: 'x' }] })).toThrow(/"documents" must be an array of 2 entries/);
  });

  it('a FlatIndex snapshot restores to a retriever that ranks exactly like the original index', async () => {
    const embedder = createMockEmbedder({ dimensions: 8 });
    const texts = ['cats purr softly', 'dogs bark loudly', 'fish swim in water', 'cats and dogs play', 'the sun is hot'];
    const { embeddings } = await embedder.embed({ texts, kind: 'passage' });
    const index = createFlatIndex({ dimensions: 8 });
    index.upsert(texts.map((_, i) => ({ id: `d${i}`, vector: embeddings[i] as Float32Array })));
    const documents = new Map(texts.map((text, i) => [`d${i}`, { text, title: `T${i}` }]));
    const snapshot = deserializeDenseIndex(serializeDenseIndex(snapshotFlatIndex(index, { embedderId: embedder.id, documents })));
    const retriever = await restoreDenseRetriever(snapshot, { embedder });
    const {
      embeddings: [query],
    } = await embedder.embed({ texts: ['cats purr'], kind: 'query' });
    const expected = index.search(query as Float32Array, { topK: 5 });
    const { evidence } = await retriever.retrieve({ query: { text: 'cats purr' }, topK: 5 });
    expect(evidence.map((hit) => [hit.documentId, hit.score])).toEqual(expected.map((hit) => [hit.id, hit.score]));
    expect(evidence[0]).toMatchObject({ text: documents.get(evidence[0]!.documentId)!.text, origin: { documentId: evidence[0]!.documentId, title: documents.get(evidence[0]!.documentId)!.title } });
    await expect(restoreDenseRetriever(snapshot, { embedder: createMockEmbedder({ dimensions: 8, id: 'other' }) })).rejects.toThrow(/was embedded with/);
    expect(() => snapshotFlatIndex(index, { embedderId: 'e', documents: new Map() })).toThrow(/has no entry for id "d0"/);
  });
});
