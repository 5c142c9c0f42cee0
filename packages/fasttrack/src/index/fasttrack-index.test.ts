import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { TOPIC_DOCUMENTS } from '../../test/fixtures.js';
import { createClassTfidfLabeller } from '../labels/class-tfidf-labeller.js';
import { addDocumentsToIndex, buildFastTrackIndex } from './fasttrack-index.js';
import { deserializeFastTrackIndex, serializeFastTrackIndex } from './serialize-index.js';

const embedder = createMockEmbedder({ dimensions: 64 });
const labeller = createClassTfidfLabeller({ topN: 6 });

describe('buildFastTrackIndex', () => {
  it('embeds, clusters and labels, reporting each stage with progress and timings', async () => {
    const stages = new Set<string | undefined>();
    const { index, timings, problems } = await buildFastTrackIndex(TOPIC_DOCUMENTS, { embedder, labeller, k: 4, maxLeafSize: 6, seed: 3, onProgress: ({ stage }) => stages.add(stage) });
    expect([...stages]).toEqual(['embed', 'cluster', 'label']);
    expect(Object.keys(timings)).toEqual(['embed', 'cluster', 'label']);
    expect(problems).toEqual([]);
    expect(index.tree.leaves.every((leaf) => (index.tree.nodes[leaf]?.members?.length ?? 0) <= 6)).toBe(true);
    expect(index.labels.size).toBe(index.tree.leaves.length);
    for (const leaf of index.tree.leaves) expect(index.labels.get(leaf)?.keywords.length).toBeGreaterThan(0);
    expect(index.embedderId).toBe(embedder.id);
  });

  it('reports empty and duplicate texts, rejects duplicate ids and a missing embedder', async () => {
    const documents = [...TOPIC_DOCUMENTS.slice(0, 5), { id: 'e', text: '' }, { id: 'dup', text: TOPIC_DOCUMENTS[0]!.text }];
    const { problems } = await buildFastTrackIndex(documents, { embedder, labeller, k: 3, maxLeafSize: 3 });
    expect(problems.map((problem) => [problem.id, problem.code])).toEqual([
      ['e', 'empty-text'],
      ['dup', 'duplicate-text'],
    ]);
    await expect(buildFastTrackIndex([TOPIC_DOCUMENTS[0]!, TOPIC_DOCUMENTS[0]!], { embedder, labeller })).rejects.toThrow(/duplicates id/);
    await expect(buildFastTrackIndex(TOPIC_DOCUMENTS, { labeller })).rejects.toThrow(InvalidArgumentError);
    await expect(buildFastTrackIndex([], { embedder, labeller })).rejects.toThrow(/"documents"/);
  });
});

describe('serializeFastTrackIndex / deserializeFastTrackIndex', () => {
  it('round-trips the index exactly', async () => {
    const { index } = await buildFastTrackIndex(TOPIC_DOCUMENTS, { embedder, labeller, k: 4, maxLeafSize: 6 });
    const bytes = await serializeFastTrackIndex(index);
    const loaded = await deserializeFastTrackIndex(bytes);
    expect(loaded.documents).toEqual(index.documents);
    expect(Array.from(loaded.embeddings.data)).toEqual(Array.from(index.embeddings.data));
    expect(loaded.tree.leaves).toEqual(index.tree.leaves);
    expect(loaded.tree.nodes.map((node) => [node.members ?? null, Array.from(node.centroid)])).toEqual(index.tree.nodes.map((node) => [node.members ?? null, Array.from(node.centroid)]));
    expect([...loaded.labels.entries()]).toEqual([...index.labels.entries()]);
  });

  it('throws CorruptDataError on a flipped byte, a truncated file, foreign bytes or another format version', async () => {
    const { index } = await buildFastTrackIndex(TOPIC_DOCUMENTS, { embedder, labeller, k: 4, maxLeafSize: 6 });
    const bytes = await serializeFastTrackIndex(index);
    const flipped = bytes.slice();
    flipped[200] = (flipped[200] as number) ^ 1;
    const cases: Array<[Uint8Array, RegExp]> = [
      [flipped, /checksum/],
      [bytes.slice(0, bytes.length - 10), /checksum/],
      [new TextEncoder().encode('{"not":"an index"} padding padding padding padding'), /not a FastTrack index/],
    ];
    const otherVersion = bytes.slice();
    otherVersion[4] = 2;
    cases.push([otherVersion, /version 2/]);
    for (const [input, message] of cases) {
      const error = await deserializeFastTrackIndex(input, { source: 'index.ftix' }).catch((caught: unknown) => caught);
      expect(CorruptDataError.isInstance(error)).toBe(true);
      expect(String((error as Error).message)).toMatch(message);
      expect(String((error as Error).message)).toMatch(/index\.ftix/);
    }
  });
});

describe('addDocumentsToIndex', () => {
  it('adds documents to the nearest leaves, re-splits and labels overflowing leaves, keeps the input index', async () => {
    const { index } = await buildFastTrackIndex(TOPIC_DOCUMENTS, { embedder, labeller, k: 4, maxLeafSize: 6, seed: 2 });
    const added = Array.from({ length: 8 }, (_, position) => ({ id: `new${position}`, text: `Kerala coronavirus cases update number ${position}.` }));
    const result = await addDocumentsToIndex(index, added, { embedder, labeller });
    expect(result.index.documents).toHaveLength(28);
    expect(result.index.tree.nodes[0]?.size).toBe(28);
    expect(result.index.tree.leaves.every((leaf) => (result.index.tree.nodes[leaf]?.members?.length ?? 0) <= 6)).toBe(true);
    expect(result.splitLeaves.length).toBeGreaterThan(0);
    for (const leaf of result.labelledLeaves) expect(result.index.labels.get(leaf)?.keywords.length).toBeGreaterThan(0);
    for (const leaf of result.splitLeaves) expect(result.index.labels.has(leaf)).toBe(false);
    expect(index.documents).toHaveLength(20);
    await expect(addDocumentsToIndex(index, [{ id: 'd0', text: 'again' }], { embedder, labeller })).rejects.toThrow(/duplicates id/);
  });
});
