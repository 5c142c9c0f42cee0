import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@factkit/core';
import { buildSciFactLeakageDataset } from './scifact-leakage-dataset.js';

// Hand-made rows in SciFact's schema (not SciFact data).
const abstracts = [
  { doc_id: 10, abstract: ['Cats are mammals.', 'No cat can fly.', 'Cats purr when content.'] },
  { doc_id: 20, abstract: ['Dogs bark at strangers.', 'Dogs are loyal.'] },
];

describe('buildSciFactLeakageDataset', () => {
  it('sentence-level store, rationale sentences as gold evidence and qrels, claims without rationales left out', () => {
    const { dataset, problems, leftOut } = buildSciFactLeakageDataset({
      abstracts,
      claims: [
        { id: 1, claim: 'Cats purr.', evidence: { '10': [{ sentences: [2], label: 'SUPPORT' }] } },
        { id: 2, claim: 'Birds sing.', evidence: {} },
        {
          id: 3,
          claim: 'Dogs are disloyal.',
          evidence: {
            '20': [
              { sentences: [1], label: 'CONTRADICT' },
              { sentences: [0, 1], label: 'CONTRADICT' },
            ],
          },
        },
        { id: 4, claim: 'Mixed.', evidence: { '10': [{ sentences: [0], label: 'SUPPORT' }], '20': [{ sentences: [0], label: 'CONTRADICT' }] } },
      ],
    });
    expect(dataset.corpus?.map((document) => document.id)).toEqual(['10#0', '10#1', '10#2', '20#0', '20#1']);
    expect(dataset.claims.map((claim) => claim.id)).toEqual(['1', '3', '4']);
    // Only the rationale sentence, not the abstract with its negation ("No cat can fly.").
    expect(dataset.evidence['1']).toEqual(['Cats purr when content.']);
    expect(dataset.evidence['3']).toEqual(['Dogs are loyal.', 'Dogs bark at strangers.']);
    expect(dataset.qrels['3']).toEqual({ '20#1': 1, '20#0': 1 });
    expect(dataset.labels).toEqual({ '1': 'supported', '3': 'refuted' }); // claim 4's rationale sets disagree: no label
    expect(leftOut).toBe(1);
    expect(problems).toEqual([]);
  });

  it('bad rows are problems; limit counts kept claims; bad arguments throw', () => {
    const { dataset, problems } = buildSciFactLeakageDataset({
      abstracts: [...abstracts, { doc_id: 30 }],
      claims: [
        { id: 5 },
        { id: 6, claim: 'x', evidence: { '99': [{ sentences: [0], label: 'SUPPORT' }] } },
        { id: 7, claim: 'y', evidence: { '10': [{ sentences: [7], label: 'SUPPORT' }] } },
        { id: 8, claim: 'Cats.', evidence: { '10': [{ sentences: [0], label: 'SUPPORT' }] } },
        { id: 9, claim: 'Dogs.', evidence: { '20': [{ sentences: [0], label: 'SUPPORT' }] } },
      ],
      limit: 1,
    });
    expect(dataset.claims.map((claim) => claim.id)).toEqual(['8']);
    expect(problems.map((problem) => problem.code)).toEqual(['invalid-abstract', 'invalid-claim', 'invalid-rationale', 'invalid-rationale']);
    expect(() => buildSciFactLeakageDataset({ claims: {} as never, abstracts })).toThrow(InvalidArgumentError);
    expect(() => buildSciFactLeakageDataset({ claims: [], abstracts, limit: 0 })).toThrow(/limit/);
  });
});
