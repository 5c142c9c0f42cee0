import { createSeededRandom } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import fc from 'fast-check';
import * as fuzzball from 'fuzzball';
import { describe, expect, it } from 'vitest';
import { buildClusterTree } from '../clustering/cluster-tree.js';
import { packVectors } from '../clustering/vector-matrix.js';
import type { FastTrackIndex, LeafLabel } from '../index/fasttrack-index.js';
import { createClusterMatcher, FUZZY_SCORER_NAMES } from './cluster-matcher.js';

/** An index with hand-set keywords on leaves of a real tree. */
function indexWithKeywords(keywords: readonly (readonly string[])[]): FastTrackIndex {
  const random = (seed: number) => Float32Array.from({ length: 4 }, (_, column) => Math.sin(seed * 7.1 + column));
  const embeddings = packVectors(Array.from({ length: keywords.length * 3 }, (_, row) => random(Math.floor(row / 3))));
  const tree = buildClusterTree(embeddings, { k: keywords.length, maxLeafSize: 3, seed: 1 });
  const labels = new Map<number, LeafLabel>(tree.leaves.map((leaf, position) => [leaf, { keywords: keywords[position % keywords.length] ?? [], status: 'ok', problems: [] }]));
  const documents = Array.from({ length: embeddings.rows }, (_, row) => ({ id: `r${row}`, text: `row ${row}` }));
  return { embedderId: 'test', labellerId: 'hand', documents, embeddings, tree, labels };
}

describe('createClusterMatcher', () => {
  const keywords = [
    ['Black Mass', 'Johnny Depp', 'box office'],
    ['Kerala', 'COVID-19 cases', 'surveillance'],
    ['Scottish Parliament', 'MSP'],
    ['Arctic sea ice', 'glaciers', 'global warming'],
  ];

  it('scores each leaf by its best keyword exactly as a naive loop of fuzzball calls on the raw strings does', () => {
    const index = indexWithKeywords(keywords);
    for (const scorer of FUZZY_SCORER_NAMES) {
      const matcher = createClusterMatcher([index], { scorer, limit: 100 });
      for (const query of ['As of 14 March, there have been more than 20 confirmed COVID-19 cases in Kerala.', 'Johnny Depp starred in Black Mass.', 'Ünïcödé  ARCTIC   ice!!', 'x']) {
        const naive = index.tree.leaves
          .map((leaf) => ({ leaf, score: Math.max(...(index.labels.get(leaf)?.keywords ?? []).map((keyword) => (fuzzball[scorer] as (a: string, b: string) => number)(query, keyword))) }))
          .filter(({ score }) => score > 0)
          .sort((a, b) => b.score - a.score || a.leaf - b.leaf);
        const ours = matcher.match(query).leaves.map(({ leafId, score }) => ({ leaf: leafId, score }));
        expect(ours).toEqual(naive);
      }
    }
  });

  it('keeps exactly the top `limit` leaves of the full computation when it prunes WRatio by upper bounds (property)', () => {
    const random = createSeededRandom(17);
    const vocabulary = [
      'kerala',
      'covid',
      'cases',
      'black mass',
      'depp',
      'film',
      'parliament',
      'scottish',
      'arctic',
      'sea ice',
      'glacier',
      'warming',
      'march 2020',
      'surveillance',
      'state',
      'virus',
      'box office',
      'north america',
      'ice',
      'mass',
    ];
    const pick = () => vocabulary[Math.floor(random() * vocabulary.length)] as string;
    const manyKeywords = Array.from({ length: 60 }, () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => (random() < 0.3 ? `${pick()} ${pick()}` : pick())));
    const index = indexWithKeywords(manyKeywords);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary, 'the', 'of', 'in', '2020', 'Kerala!', 'COVID-19', 'a'), { minLength: 1, maxLength: 14 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom(0, 50, 70), (words, limit, cutoff) => {
        const query = words.join(' ');
        const pruned = createClusterMatcher([index], { limit, cutoff }).match(query);
        const full = createClusterMatcher([index], { limit: 100_000, cutoff }).match(query);
        expect(pruned.leaves.map(({ leafId, score }) => [leafId, score])).toEqual(full.leaves.slice(0, limit).map(({ leafId, score }) => [leafId, score]));
        expect(pruned.comparisons).toBeLessThanOrEqual(full.comparisons);
      }),
      { numRuns: 200 },
    );
  });

  it('prunes exactly on arbitrary strings too (unicode, punctuation, repeats; property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }), { minLength: 8, maxLength: 16 }),
        fc.string({ maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        (keywordSets, query, limit) => {
          const index = indexWithKeywords(keywordSets);
          const pruned = createClusterMatcher([index], { limit, fallback: 'none' }).match(query);
          const full = createClusterMatcher([index], { limit: 100_000, fallback: 'none' }).match(query);
          expect(pruned.leaves.map(({ leafId, score }) => [leafId, score])).toEqual(full.leaves.slice(0, limit).map(({ leafId, score }) => [leafId, score]));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps the best `limit` leaves (default 5, WRatio) and the matched keyword', () => {
    const index = indexWithKeywords(keywords);
    const match = createClusterMatcher([index]).match('Kerala reported more COVID-19 cases.');
    expect(match.leaves.length).toBeLessThanOrEqual(5);
    expect(match.leaves[0]?.keyword).toMatch(/Kerala|COVID-19 cases/);
    expect(match.leaves[0]?.via).toBe('keywords');
  });

  it('falls back to the nearest centroids when nothing matches, and says so', async () => {
    const index = indexWithKeywords(keywords);
    const matcher = createClusterMatcher([index], { cutoff: 99, limit: 2 });
    const { embeddings } = await createMockEmbedder({ dimensions: 4 }).embed({ texts: ['zzz'], kind: 'query' });
    const fallback = matcher.match('zzz qqq', { queryEmbedding: embeddings[0] as Float32Array });
    expect(fallback.leaves).toHaveLength(2);
    expect(fallback.leaves.every((leaf) => leaf.via === 'fallback')).toBe(true);
    expect(fallback.problems.map((problem) => problem.code)).toEqual(['no-cluster-matched']);
    const none = createClusterMatcher([index], { cutoff: 99, fallback: 'none' }).match('zzz qqq');
    expect(none.leaves).toEqual([]);
    expect(none.problems.map((problem) => problem.code)).toEqual(['no-cluster-matched']);
    expect(
      createClusterMatcher([index])
        .match('')
        .problems.map((problem) => problem.code),
    ).toEqual(['no-cluster-matched']);
  });

  it('adds centroid leaves on request and rejects bad options', () => {
    const index = indexWithKeywords(keywords);
    const match = createClusterMatcher([index], { limit: 1, centroidLeaves: 2 }).match('Black Mass', { queryEmbedding: index.tree.nodes[index.tree.leaves[3] as number]?.centroid as Float32Array });
    expect(match.leaves.map((leaf) => leaf.via)).toEqual(['keywords', 'centroid', 'centroid']);
    expect(() => createClusterMatcher([index], { scorer: 'nope' as never })).toThrow(/"scorer"/);
    expect(() => createClusterMatcher([index], { limit: 0 })).toThrow(/"limit"/);
    expect(() => createClusterMatcher([], {})).toThrow(/"indexes"/);
  });
});
