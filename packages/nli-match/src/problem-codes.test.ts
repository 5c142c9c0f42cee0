import type { Document, ExpandedQuery, GenerateRequest, NliModel, QueryExpander, Retriever } from '@factkit/core';
import { createMockRetriever } from '@factkit/core/testing';
import { compareProblemCodes } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { matchGenerationsToEvidence } from './match/match-generation-to-evidence.js';
import { type NliMatchProblemCode, isEmptyGeneration } from './problem-codes.js';
import type { LeakageDataset } from './study/leakage-study-types.js';
import { runLeakageStudy } from './study/run-leakage-study.js';
import { buildSciFactLeakageDataset } from './study/scifact-leakage-dataset.js';

// Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
const CODES = {
  'empty-claim': true,
  'blank-evidence-item': true,
  'empty-generation': true,
  refusal: true,
  'wrong-language': true,
  'only-claim-reproductions': true,
  'empty-evidence': true,
  'nli-unreadable': true,
  'match-unknown': true,
  'match-failed': true,
  'invalid-abstract': true,
  'invalid-claim': true,
  'invalid-rationale': true,
  'duplicate-claim': true,
  'no-qrels': true,
  'unknown-qrels-document': true,
  'no-gold-label': true,
  'unknown-gold-label': true,
  'claim-failed': true,
  'expansion-failed': true,
  'expander-problem': true,
  'retrieval-failed': true,
  'verdict-failed': true,
  'verdict-unreadable': true,
  'verdict-nli-unreadable': true,
} satisfies Record<NliMatchProblemCode, true>;

/** Entailment for every pair, except a hypothesis or premise containing "UNREADABLE": no label. */
const nli: NliModel = {
  id: 'scripted-nli',
  async classify({ pairs }) {
    return { results: pairs.map((pair) => (`${pair.premise} ${pair.hypothesis}`.includes('UNREADABLE') ? { label: null, problem: 'unreadable' } : { label: 'entailment' as const })) };
  },
};

const corpus: Document[] = [
  { id: 'd1', text: 'Aspirin reduces fever in adults.' },
  { id: 'd2', text: 'Vitamin D supports bone health.' },
];

async function matchingCodes(): Promise<Set<string>> {
  const evidence = ['Aspirin reduces fever in adults.'];
  const items = [
    { claim: '', generation: 'Aspirin reduces fever.', evidence },
    { claim: 'Aspirin lowers fever.', generation: 'Aspirin reduces fever.', evidence: ['', ...evidence] },
    { claim: 'Aspirin lowers fever.', generation: '', evidence },
    { claim: 'Aspirin lowers fever.', generation: "I'm sorry, but I can't help with that.", evidence },
    { claim: 'Aspirin lowers fever.', generation: 'Aspirin reduces fever.', evidence, language: 'zh' as const },
    { claim: 'Aspirin lowers fever.', generation: 'Aspirin lowers fever.', evidence },
    { claim: 'Aspirin lowers fever.', generation: 'Aspirin reduces fever.', evidence: [] },
    { claim: 'Aspirin lowers fever.', generation: 'UNREADABLE answer about aspirin.', evidence },
    null as never,
  ];
  const { problems } = await matchGenerationsToEvidence({ items, nli });
  return new Set(problems.map((problem) => problem.code));
}

function scifactCodes(): Set<string> {
  const { problems } = buildSciFactLeakageDataset({
    abstracts: [{ doc_id: 1, abstract: ['Aspirin reduces fever.'] }, { title: 'no id' }],
    claims: [{ id: 1, claim: 'Aspirin lowers fever.', evidence: { 7: [{ sentences: [0], label: 'SUPPORT' }] } }, { claim: 'no id' }],
  });
  return new Set(problems.map((problem) => problem.code));
}

async function studyCodes(): Promise<Set<string>> {
  const dataset: LeakageDataset = {
    claims: [
      { id: 'c1', text: 'Aspirin lowers fever.' },
      { id: 'c1', text: 'Aspirin lowers fever (again).' },
      { id: '', text: 'no id' },
      { id: 'c2', text: 'Vitamin D helps bones.' },
      { id: 'c3', text: 'Aspirin cures colds.' },
      { id: 'c4', text: 'Aspirin is a vitamin.' },
      { id: 'c5', text: 'Vitamin D is a drug.' },
    ],
    evidence: { c1: ['Aspirin reduces fever in adults.'], c2: ['Vitamin D supports bone health.'], c3: ['x'], c4: ['x'], c5: ['Vitamin D supports bone health.'] },
    qrels: { c1: { d1: 1, d9: 1 }, c3: { d1: 1 }, c4: { d1: 1 }, c5: { d2: 1 } },
    labels: { c1: 'SUPPORTS', c3: 'WEIRD', c4: 'REFUTES', c5: 'REFUTES' },
    corpus,
  };
  // c1: the expander reports a problem of its own; c3: expansion throws; c4: the expander breaks its contract (the run throws).
  const expander: QueryExpander = {
    id: 'scripted-expander',
    usesLanguageModel: true,
    async expand({ query }): Promise<ExpandedQuery> {
      if (query.id === 'c3') throw new Error('model down');
      if (query.id === 'c4') return undefined as never;
      const problems = query.id === 'c1' ? [{ code: 'its-own-code', message: 'a flagged generation' }] : [];
      return { id: query.id, text: query.text, original: query, generations: [`${query.text} Aspirin reduces fever in adults.`], problems };
    },
  };
  // c2: retrieval fails.
  const base = createMockRetriever(corpus);
  const retriever: Retriever = {
    id: 'scripted-retriever',
    retrieve: (request) => (request.query.id === 'c2' ? Promise.reject(new Error('index offline')) : base.retrieve(request)),
  };
  // c1: an unreadable verdict; c5: a failed verdict call.
  const verdictModel = {
    id: 'scripted-verdicts',
    async generate(request: GenerateRequest) {
      if (request.prompt?.includes('Vitamin D is a drug')) throw new Error('verdict model down');
      return { texts: ['banana'], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
    },
  };
  const withModel = await runLeakageStudy({ dataset, retriever, expander, nli, repeats: 1, ks: [1], verdictModel, verdictLabels: ['SUPPORTS', 'REFUTES'] });
  // LLM-free verdicts whose NLI gives no label for the retrieved text.
  const unreadableNli: NliModel = { id: 'unreadable', classify: async ({ pairs }) => ({ results: pairs.map(() => ({ label: null, problem: 'no label' })) }) };
  const withNli = await runLeakageStudy({
    dataset: { claims: [{ id: 'c5', text: 'Vitamin D is a drug.' }], evidence: { c5: ['Vitamin D supports bone health.'] }, qrels: { c5: { d2: 1 } }, labels: { c5: 'REFUTES' } },
    retriever: base,
    expander,
    nli,
    repeats: 1,
    ks: [1],
    verdictNli: unreadableNli,
  });
  return new Set([...withModel.problems, ...withNli.problems].map((problem) => problem.code));
}

describe('NliMatchProblemCode', () => {
  it('is exactly the codes matching, the SciFact builder and the leakage study emit (each provoked here)', async () => {
    const emitted = new Set([...(await matchingCodes()), ...scifactCodes(), ...(await studyCodes())]);
    expect(compareProblemCodes(CODES, emitted)).toEqual({ outside: [], notEmitted: [] });
  });

  it('isEmptyGeneration picks out the empty-generation problem only', () => {
    expect(Object.keys(CODES).filter((code) => isEmptyGeneration({ code }))).toEqual(['empty-generation']);
  });
});
