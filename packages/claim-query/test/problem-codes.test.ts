// Pins ClaimQueryProblemCode against the codes the package emits: the union is exactly the table below (a compile
// check), every problem type of the public surface is parameterised by it (type checks), every code literal in src/
// is a member and every member is emitted somewhere (a source scan), and the cheap ones are provoked at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NliModel } from '@factkit/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { majorityLabel } from '../src/verify/create-llm-verifier.js';
import type {
  CheckedClaim,
  ClaimQueryGenerator,
  ClaimQueryParse,
  ClaimQueryProblemCode,
  ClaimVerdictRecord,
  DetectionEvaluation,
  DetectionResult,
  DraftResult,
  GeneratedClaims,
  GeneratedPair,
  ParsedClaimQueryPair,
  ResponseJudgement,
  TrainingDataResult,
  VerifierReply,
} from '../src/index.js';
import { createNliVerifier, detectHallucinations, draftClaimsAndQueries, evaluateDetections, failureReason, parseClaimQueryReply, parseVerifierReply } from '../src/index.js';
import { createBagOfWordsEmbedder, createTableRetriever, createYearNliModel, pairsOf } from './support.js';

/** Every code, with where it comes from. Adding a code to the union without a row here (or the reverse) fails to compile. */
const CODES = {
  'empty-answer': 'detector, drafter, whole-response baseline: the answer is empty',
  'context-ignored': 'detector: a row with both reference and context is checked against the reference',
  refusal: 'detector (generator or verifier refused), drafter (a refusing sentence)',
  'search-failed': 'detector: a claim search threw',
  'verifier-failed': 'detector: some claims could not be checked',
  'alignment-failed': 'detector: the embedder threw',
  'no-alignment': 'detector: no embedder for claims without a sentence index',
  'answer-chunked': 'JointCQ generator: a long answer split into chunks',
  'empty-reply': 'reply parsers (and core list/label parsers)',
  'missing-section': 'claim-query reply parser',
  'missing-end': 'claim-query reply parser',
  'extra-text': 'reply parsers',
  'repeated-block': 'claim-query reply parser',
  'joined-line': 'claim-query reply parser',
  'count-mismatch': 'claim-query reply parser',
  'missing-query': 'claim-query reply parser (per pair)',
  'orphan-query': 'claim-query reply parser',
  'mixed-language': 'claim-query reply parser',
  'contradictory-no-claims': 'claim-query reply parser',
  'no-claims-parsed': 'claim-query and claim-synthesis reply parsers',
  'no-claims': 'drafter, training-data synthesis',
  'no-factual-content': 'drafter',
  'question-sentence': 'drafter',
  'tied-votes': 'LLM verifier: several samples without a majority',
  'ambiguous-label': "core's label parser (verifier, criteria, judge replies)",
  'no-label': "core's label parser (verifier, criteria, judge replies)",
  'conflicting-evidence': 'NLI verifier, majority aggregation: as many entailing as contradicting snippets',
  'nli-unreadable': 'NLI verifier: snippet judgements without a label',
  'empty-query': 'the passage ranker of reference/context mode: a query without content words',
  'no-gold': 'evaluateDetections: a result without gold',
  'sentence-count-mismatch': 'evaluateDetections: sentence counts differ from the gold',
  'call-failed': "core's prompted step (a failed model call); the detector (a generator/verifier that threw)",
  'invalid-input': "core's prompted step: a prompt that could not be rendered",
  'missing-reply': "core's prompted step: fewer replies than asked",
  'parse-failed': "core's prompted step: the parser gave no value",
} satisfies Record<ClaimQueryProblemCode, string>;
const ALL = new Set<string>(Object.keys(CODES));
/** Codes only core's helpers (prompted step, label parser) write; the others appear as literals in src/. */
const FROM_CORE = new Set(['invalid-input', 'missing-reply', 'parse-failed', 'ambiguous-label', 'no-label']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('ClaimQueryProblemCode', () => {
  it('types every public problem field with the union', () => {
    type Code<T extends { readonly problems?: readonly { readonly code: string }[] }> = NonNullable<T['problems']>[number]['code'];
    expectTypeOf<Code<DetectionResult>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<CheckedClaim>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<ClaimVerdictRecord>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<GeneratedClaims>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<GeneratedPair>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<ClaimQueryParse>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<ParsedClaimQueryPair>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<DraftResult>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<VerifierReply>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<ResponseJudgement>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<DetectionEvaluation>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf<Code<TrainingDataResult['rejected'][number]>>().toEqualTypeOf<ClaimQueryProblemCode>();
    expectTypeOf(failureReason).returns.toEqualTypeOf<{ readonly index?: number; readonly id?: string; readonly code: ClaimQueryProblemCode; readonly message: string; readonly raw?: string } | undefined>();
  });

  it('is exactly the codes written in src/ plus those core writes for the package', () => {
    const written = new Set<string>();
    for (const file of sourceFiles(join(import.meta.dirname, '../src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:code: |problem\()'([a-z-]+)'/g)) written.add(match[1]!);
    }
    expect([...written].filter((code) => !ALL.has(code))).toEqual([]);
    expect([...ALL].filter((code) => !written.has(code) && !FROM_CORE.has(code))).toEqual([]);
  });

  it('the codes provoked at run time are members', async () => {
    const seen = new Map<string, string>();
    const note = (where: string, problems: readonly { readonly code: string }[] | undefined) => {
      for (const problem of problems ?? []) if (!seen.has(problem.code)) seen.set(problem.code, where);
    };
    // The reply parser: one irregularity per reply.
    for (const reply of [
      '',
      '1. A is B.',
      '[Claims]\n1. A is B.\n[Queries]\n1. what is A',
      'Sure!\n[Claims]\n1. A is B.\nsome prose\n2. C is D.\n[Queries]\n1. what is A\n[End]\ntrailing',
      '[Claims]\n1. A is B.\n[Queries]\n1. q\n2. extra\n[Claims]\n1. again\n[End]',
      '[Claims]\n1. A is B.\n[查询]\n1. q\n[End]',
      '[Claims]\nNo claims.\nA is B.\n[Queries]\nq\n[End]',
      '[Claims]\n[Queries]\n[End]',
      '[Claims]\n- A is B\ncontinued\n[Queries]\n- q\n[End]',
      '[Claims]\n1. A is B.\n2. C is D\n   wrapped.\n[Queries]\n1. q\n[End]',
    ]) {
      const parsed = parseClaimQueryReply(reply);
      note('parser', parsed.problems);
      for (const pair of parsed.pairs) note('parser pair', pair.problems);
    }
    // The drafter.
    note('drafter', draftClaimsAndQueries({ question: 'q', answer: '' }).problems);
    note('drafter', draftClaimsAndQueries({ question: 'Who?', answer: "I'm sorry, I cannot help. I think it is nice. Is it red?" }).problems);
    // The verifier reply parser (core's label parser inside).
    note('verifier reply', parseVerifierReply('Correct or Hallucination').problems);
    note('verifier reply', parseVerifierReply('maybe').problems);
    note('verifier vote', majorityLabel(['correct', 'hallucinated']).problems);

    // The detector: a failed search, no embedder, an empty answer, both reference and context, a throwing generator,
    // a refusing one, a throwing embedder; the NLI verifier's unread labels and a tied majority.
    const retriever = createTableRetriever({ 'Acqua Felice completion': ['The Acqua Felice was completed in 1586.', 'The Acqua Felice was completed in 1600.'] }, ['broken query']);
    const fixed = (pairs: { claim: string; query?: string }[]): ClaimQueryGenerator => ({
      id: 'fixed',
      generate: async ({ items }) => items.map((qa) => ({ status: 'ok' as const, pairs: pairsOf(qa.id, pairs), noClaims: false, problems: [] })),
    });
    const answer = 'The Acqua Felice was completed in 1586.';
    const item = { id: 'q', question: 'When?', answer };
    const noteResults = (where: string, results: readonly DetectionResult[]) => {
      for (const result of results) {
        note(where, result.problems);
        for (const claim of result.claims) note(`${where} claim`, [...claim.problems, ...claim.verdict.problems]);
      }
    };
    const nli = createNliVerifier({ nli: createYearNliModel() });
    noteResults('detector', await detectHallucinations({ items: [item], generator: fixed([{ claim: answer, query: 'broken query' }]), retriever, verifier: nli }));
    noteResults('detector', await detectHallucinations({ items: [{ ...item, answer: '' }], generator: fixed([]), retriever, verifier: nli }));
    noteResults('detector', await detectHallucinations({ items: [{ ...item, reference: answer, context: 'Other text.' }], generator: fixed([{ claim: answer }]), verifier: nli }));
    noteResults('detector', await detectHallucinations({ items: [item], generator: { id: 'down', generate: async () => Promise.reject(new Error('503')) }, retriever, verifier: nli }));
    const refusing: ClaimQueryGenerator = { id: 'refusing', generate: async ({ items }) => items.map(() => ({ status: 'ok' as const, pairs: [], noClaims: false, problems: [], raw: ["I'm sorry, but I can't help with that."] })) };
    noteResults('detector', await detectHallucinations({ items: [item], generator: refusing, retriever, verifier: nli }));
    const brokenEmbedder = { ...createBagOfWordsEmbedder(), embed: async () => Promise.reject(new Error('embedder down')) };
    noteResults('detector', await detectHallucinations({ items: [item], generator: fixed([{ claim: answer, query: 'Acqua Felice completion' }]), retriever, verifier: nli, embedder: brokenEmbedder }));
    const unreadable: NliModel = { id: 'unreadable', classify: async ({ pairs }) => ({ results: pairs.map(() => ({ label: null, problem: 'no answer' })) }) };
    noteResults('detector', await detectHallucinations({ items: [item], generator: fixed([{ claim: answer, query: 'Acqua Felice completion' }]), retriever, verifier: createNliVerifier({ nli: unreadable }) }));
    const tied = await detectHallucinations({ items: [item], generator: fixed([{ claim: answer, query: 'Acqua Felice completion' }]), retriever, verifier: createNliVerifier({ nli: createYearNliModel(), aggregation: 'majority' }) });
    noteResults('detector', tied);
    // The evaluation: no gold for one result, a sentence count that differs for another.
    note('evaluation', evaluateDetections([...tied, { ...tied[0]!, id: 'other' }], new Map([['q', { response: false, sentences: [false, false] }]])).problems);

    const provoked = [...seen.keys()];
    expect(provoked.filter((code) => !ALL.has(code))).toEqual([]);
    expect(new Set(provoked)).toEqual(
      new Set([
        ...['empty-reply', 'missing-section', 'missing-end', 'extra-text', 'repeated-block', 'count-mismatch', 'orphan-query', 'mixed-language', 'contradictory-no-claims', 'no-claims-parsed', 'joined-line', 'missing-query'],
        ...['empty-answer', 'refusal', 'no-factual-content', 'question-sentence', 'no-claims'],
        ...['ambiguous-label', 'no-label', 'tied-votes'],
        ...['search-failed', 'verifier-failed', 'no-alignment', 'context-ignored', 'call-failed', 'alignment-failed', 'nli-unreadable', 'conflicting-evidence'],
        ...['no-gold', 'sentence-count-mismatch'],
      ]),
    );
  });
});
