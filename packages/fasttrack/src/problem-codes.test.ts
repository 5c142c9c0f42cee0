import type { LanguageModel, NliModel } from '@factkit/core';
import { createMockEmbedder, createMockNliModel } from '@factkit/core/testing';
import { compareProblemCodes } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { TOPIC_DOCUMENTS } from '../test/fixtures.js';
import type { FastTrackProblemCode } from './index.js';
import { buildFastTrackIndex } from './index/fasttrack-index.js';
import { createLlmSupportJudge } from './judge/llm-support-judge.js';
import { createNliSupportJudge } from './judge/nli-support-judge.js';
import { parseSupportScores } from './judge/parse-support-scores.js';
import { supportJudgement, type SupportJudge } from './judge/support-judge.js';
import { createClassTfidfLabeller } from './labels/class-tfidf-labeller.js';
import type { KeywordLabeller } from './labels/keyword-labeller.js';
import { createLlmKeywordLabeller } from './labels/llm-keyword-labeller.js';
import { parseKeywords } from './labels/parse-keywords.js';
import { createFastTrack, traceProblemKind, type FastTrack } from './online/fasttrack.js';
import { runTraceStudy } from './study/run-trace-study.js';

/** Every code, listed by hand: `satisfies` rejects a code outside the union, `Unlisted` one of the union left out. */
const ALL_CODES = [
  'empty-text',
  'duplicate-text',
  'empty-reply',
  'missing-section',
  'no-keywords',
  'keyword-count',
  'count-mismatch',
  'non-numeric-score',
  'out-of-range-score',
  'no-label',
  'unjudged',
  'no-cluster-matched',
  'unlabelled-leaves',
  'empty-query',
  'trace-failed',
  'judge-failed',
  'retrieval-failed',
  'call-failed',
  'invalid-input',
  'missing-reply',
  'parse-failed',
] as const satisfies readonly FastTrackProblemCode[];
type Unlisted = Exclude<FastTrackProblemCode, (typeof ALL_CODES)[number]>;
const everyCodeListed: [Unlisted] extends [never] ? true : Unlisted = true;

/** Codes core's runPromptedStep adds that no input of this package can provoke (its parsers neither throw nor lack a value, its prompts always render). */
const NOT_PROVOKED: readonly FastTrackProblemCode[] = ['invalid-input', 'parse-failed'];

/** A user's switch over the union: it compiles only while every case is a code of the union and every code has a case. */
function describeCode(code: FastTrackProblemCode): string {
  switch (code) {
    case 'empty-text':
    case 'duplicate-text':
      return 'document';
    case 'empty-reply':
    case 'missing-section':
    case 'no-keywords':
    case 'keyword-count':
    case 'count-mismatch':
    case 'non-numeric-score':
    case 'out-of-range-score':
      return 'reply';
    case 'no-label':
    case 'unjudged':
      return 'judgement';
    case 'no-cluster-matched':
    case 'unlabelled-leaves':
    case 'empty-query':
      return 'trace';
    case 'trace-failed':
    case 'judge-failed':
    case 'retrieval-failed':
      return 'study';
    case 'call-failed':
    case 'invalid-input':
    case 'missing-reply':
    case 'parse-failed':
      return 'call';
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

const embedder = createMockEmbedder({ dimensions: 32 });
const failing = (): never => {
  throw new Error('boom');
};

/** Runs the package's functions on inputs that provoke each code and collects every code they emit. */
async function provokeCodes(): Promise<Set<string>> {
  const codes = new Set<string>();
  // Typed by the union: every problems list below (ok judgements and the retriever's results too) carries its codes.
  const add = (problems: readonly { readonly code: FastTrackProblemCode }[] | undefined) => {
    for (const problem of problems ?? []) codes.add(problem.code);
  };
  // Index: an empty and a repeated document; a labeller whose first leaf failed.
  const documents = [...TOPIC_DOCUMENTS, { id: 'empty', text: ' ' }, { id: 'again', text: TOPIC_DOCUMENTS[0]!.text }];
  add((await buildFastTrackIndex(documents, { embedder, labeller: createClassTfidfLabeller(), k: 3, maxLeafSize: 6 })).problems);
  const tfidf = createClassTfidfLabeller();
  const failFirst: KeywordLabeller = {
    id: 'fail-first',
    async label(request) {
      const labels = await tfidf.label(request);
      return labels.map((label, position) => (position === 0 ? { ...label, status: 'failed' as const, keywords: [] } : label));
    },
  };
  const { index } = await buildFastTrackIndex(TOPIC_DOCUMENTS, { embedder, labeller: failFirst, k: 3, maxLeafSize: 6 });
  // Keyword labels: the reply parser and the c-TF-IDF baseline on a stop-word-only cluster.
  for (const reply of ['', 'no section here', '#keywords:', '#keywords: kerala, covid']) add(parseKeywords(reply).problems);
  for (const label of await createClassTfidfLabeller().label({ clusters: [{ leafId: 0, texts: ['the and of'] }] })) add(label.problems);
  // A keyword call that returns no reply (core's step: missing-reply).
  const silent: LanguageModel = { id: 'silent', generate: async () => ({ texts: [], usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } }) };
  for (const label of await createLlmKeywordLabeller({ model: silent }).label({ clusters: [{ leafId: 0, texts: ['Kerala reported cases.'] }] })) add(label.problems);
  // Support judgement: the reply parser, a failed call, an NLI model without a label, an undecided candidate.
  for (const [reply, expected] of [
    ['', 1],
    ['no scores', 1],
    ['#scores: 1', 2],
    ['#scores:\nText 1: maybe', 1],
    ['#scores: 7', 1],
  ] as const)
    add(parseSupportScores(reply, expected).problems);
  const down: LanguageModel = { id: 'down', generate: async () => failing() };
  const judged = await createLlmSupportJudge({ model: down, reaskMalformed: false }).judge({ query: 'q', candidates: [{ documentId: 'd', text: 't' }] });
  for (const judgement of judged.judgements) add(judgement.problems);
  const silentNli: NliModel = { id: 'silent-nli', classify: async ({ pairs }) => ({ results: pairs.map(() => ({ label: null })) }) };
  for (const judgement of (await createNliSupportJudge({ model: silentNli }).judge({ query: 'q', candidates: [{ documentId: 'd', text: 't' }] })).judgements) add(judgement.problems);
  add(supportJudgement('d', undefined, []).problems);
  // Online stage: unlabelled leaves on every trace, a query matching no cluster, an empty query.
  const fastTrack = createFastTrack({ index, judge: createNliSupportJudge({ model: createMockNliModel() }), fallback: 'none', cutoff: 100 });
  add((await fastTrack.trace('zzqx vvwy')).problems);
  add((await fastTrack.retriever.retrieve({ query: { text: '  ' } })).problems);
  // Study: a tracer, a judge and a ranking baseline that throw.
  const throwingTracer: FastTrack = { ...fastTrack, trace: async () => failing() };
  const throwingJudge: SupportJudge = { id: 'throws', batchSize: 1, judge: async () => failing() };
  const study = await runTraceStudy({
    statements: [{ text: 'Kerala cases', gold: ['d0'] }],
    tracers: [{ name: 'broken', fastTrack: throwingTracer }],
    upperBound: false,
    bruteForce: { judge: throwingJudge, documents: TOPIC_DOCUMENTS },
    rankers: [{ name: 'broken-ranker', retriever: { id: 'throws', retrieve: async () => failing() } }],
  });
  for (const method of study.methods) for (const run of method.perStatement) add(run.problems);
  return codes;
}

describe('FastTrackProblemCode', () => {
  it('lists every code of the union (compile-time check) and gives each a kind', () => {
    expect(everyCodeListed).toBe(true);
    expect(new Set(ALL_CODES).size).toBe(ALL_CODES.length);
    for (const code of ALL_CODES) expect(describeCode(code)).toMatch(/^(document|reply|judgement|trace|study|call)$/);
    expect(ALL_CODES.map((code) => [code, traceProblemKind({ code })]).filter(([, kind]) => kind !== 'failure')).toEqual([
      ['unjudged', 'unjudged'],
      ['no-cluster-matched', 'note'],
    ]);
  });

  it('is exactly the set of codes the package emits, each provoked here but the two core-step codes no input reaches', async () => {
    const emitted = await provokeCodes();
    expect(compareProblemCodes(ALL_CODES, emitted)).toEqual({ outside: [], notEmitted: NOT_PROVOKED });
  });
});
