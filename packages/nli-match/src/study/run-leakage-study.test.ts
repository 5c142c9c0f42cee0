import { describe, expect, it } from 'vitest';
import type { Document, ExpandedQuery, NliModel, QueryExpander } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createMockLanguageModel, createMockNliModel, createMockRetriever } from '@factkit/core/testing';
import type { LeakageDataset } from './leakage-study-types.js';
import { formatLeakageReport } from './format-leakage-report.js';
import { runLeakageStudy } from './run-leakage-study.js';

const corpus: Document[] = [
  { id: 'd1', text: 'Soul Food is a 1997 film released by Fox 2000 Pictures.' },
  { id: 'd2', text: 'Telemundo is an American Spanish-language television network.' },
  { id: 'd3', text: 'The Eiffel Tower is in Paris.' },
  { id: 'd4', text: 'Bananas are yellow fruits.' },
];

const dataset: LeakageDataset = {
  name: 'toy',
  claims: [
    { id: 'c1', text: 'Fox 2000 Pictures released the film Soul Food.' },
    { id: 'c2', text: 'Telemundo is an English-language television network.' },
    { id: 'c3', text: 'The Eiffel Tower is in Rome.' },
    { id: 'c4', text: 'Bananas are blue.' },
  ],
  evidence: { c1: [corpus[0]!.text], c2: [corpus[1]!.text], c3: [corpus[2]!.text], c4: [] },
  qrels: { c1: { d1: 1 }, c2: { d2: 1 }, c4: { d4: 1 } },
  labels: { c1: 'SUPPORTS', c2: 'REFUTES', c3: 'REFUTES', c4: 'REFUTES' },
  corpus,
  language: 'en',
};

// What the "LLM" writes for each claim and sample (hand-made so every number below can be checked by hand).
const GENERATIONS: Record<string, [string, string]> = {
  c1: [corpus[0]!.text, corpus[0]!.text],
  c2: [corpus[1]!.text, 'Bananas are yellow fruits.'],
  c3: ["I'm sorry, but I cannot help with that.", corpus[2]!.text],
  c4: ['Bananas are yellow fruits.', 'Bananas are yellow fruits.'],
};

function scriptedExpander(): QueryExpander & { samples: number[] } {
  const samples: number[] = [];
  return {
    id: 'scripted-expander',
    usesLanguageModel: true,
    samples,
    async expand({ query, sample = 0, abortSignal }): Promise<ExpandedQuery> {
      abortSignal?.throwIfAborted();
      samples.push(sample);
      const generation = GENERATIONS[query.id ?? '']?.[sample] ?? '';
      return { id: query.id, text: generation, original: query, generations: [generation] };
    },
  };
}

const nli = createMockNliModel();

describe('runLeakageStudy on a hand-checked toy dataset', () => {
  it('computes ALL / matched / unmatched, SEs, the matched proportion and problems', async () => {
    const expander = scriptedExpander();
    const progress: string[] = [];
    const result = await runLeakageStudy({
      dataset,
      retriever: createMockRetriever(corpus),
      expander,
      nli,
      repeats: 2,
      ks: [1, 2],
      concurrency: 2,
      onProgress: (event) => progress.push(`${event.stage}:${event.completed}/${event.total}`),
    });
    expect(expander.samples.sort()).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    const matched = (sample: number) => result.runs.filter((run) => run.sample === sample).map((run) => [run.claimId, run.match?.matched]);
    expect(matched(0)).toEqual([
      ['c1', true],
      ['c2', true],
      ['c3', false],
      ['c4', null],
    ]);
    expect(matched(1)).toEqual([
      ['c1', true],
      ['c2', false],
      ['c3', true],
      ['c4', null],
    ]);

    // Repeat 0: recall@1 ALL = (c1 1 + c2 1 + c4 1) / 3 = 1 (c3 has no qrels); M = 1; no unmatched claim with qrels.
    // Repeat 1: ALL = (1 + 0 + 1) / 3 = 2/3; M = 1 (c1); not-M = 0 (c2).
    const recall = result.summary['recall@1']!;
    expect(recall.all?.mean).toBeCloseTo(5 / 6, 12);
    expect(recall.all?.standardError).toBeCloseTo(1 / 6, 12);
    expect(recall.matched).toEqual({ mean: 1, standardError: 0, n: 2 });
    expect(recall.unmatched?.mean).toBe(0);
    expect(recall.unmatched?.n).toBe(1);
    expect(Number.isNaN(recall.unmatched?.standardError)).toBe(true);
    // Over claims, one value per claim and condition: M = {c1: mean(1, 1), c2: 1} (c3 has no qrels) vs ¬M = {c2: 0}
    // -> U = 2 (never the 3 of pooled claim × repeat values).
    expect(recall.matchedVsUnmatched).toMatchObject({ test: 'mann-whitney-u', statistic: 2, sizes: [2, 1] });
    expect(recall.matchedVsUnmatched?.pvalue).toBeGreaterThan(0);
    // ALL per claim {c1: 1, c2: 0.5, c4: 1} vs baseline {c1: 1, c2: 1, c4: 1}.
    expect(recall.versusBaseline).toMatchObject({ test: 'mann-whitney-u', sizes: [3, 3] });
    // c4 has no gold evidence: in ALL, in neither M nor ¬M, and not a failure.
    expect(result.counts).toEqual({ matched: 4, unmatched: 2, unknown: 0, undecidable: 2, expansionFailed: 0, retrievalFailed: 0, verdictFailed: 0 });
    expect(result.incomplete).toEqual([]);

    // Table 3: 2 of the 3 decidable claims matched in each repeat (c4 has no evidence).
    expect(result.matchedProportion?.mean).toBeCloseTo(2 / 3, 12);
    expect(result.matchedProportion?.standardError).toBe(0);

    expect(result.baseline).toEqual({ 'recall@1': 1, 'ndcg@1': 1, 'recall@2': 1, 'ndcg@2': 1 });
    const codes = result.problems.map((problem) => `${problem.id}:${problem.code}`);
    expect(codes).toEqual(expect.arrayContaining(['c3:no-qrels', 'c3#0:refusal', 'c4#0:empty-evidence', 'c4#1:empty-evidence']));
    expect(progress).toContain('baseline:4/4');
    // The two repeats are one stage of 2 × 4 runs: repeat 0 ends at 4/8, repeat 1 at 8/8.
    expect(progress).toContain('repeat:4/8');
    expect(progress.at(-1)).toBe('repeat:8/8');
    expect(progress.filter((line) => line.startsWith('repeat')).every((line) => Number(line.slice(7).split('/')[1]) === 8)).toBe(true);
  });

  it('scores verdicts with the Figure A2 prompt and macro-F1, recording unreadable answers', async () => {
    const verdictModel = createMockLanguageModel({ responses: (request) => (request.prompt?.includes('Eiffel') ? 'no idea' : 'SUPPORTS') });
    const result = await runLeakageStudy({
      dataset,
      retriever: createMockRetriever(corpus),
      expander: scriptedExpander(),
      nli,
      repeats: 1,
      ks: [1],
      verdictModel,
      verdictLabels: ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'],
    });
    const prompt = verdictModel.calls[0]?.prompt ?? '';
    expect(prompt).toMatch(/^Your task is to predict the verdict of a claim based on the provided evidence\. Select one of the following labels: SUPPORTS, REFUTES, NOT ENOUGH INFO\./);
    expect(prompt).toMatch(/\n\nClaim: .+\n\nEvidence 1: .+\n\nLabel:$/);
    // The unreadable answer (c3) is a failure, not a prediction: it is left out of F1 and makes the result incomplete.
    // gold [S, R, R], predicted [S, S, S] over the labels that occur (S, R): F1(S) = 2*(1/3*1)/(1/3+1) = 0.5, F1(R) = 0 -> 0.25.
    expect(result.summary['f1@1']?.all?.mean).toBeCloseTo(0.25, 12);
    expect(result.baseline?.['f1@1']).toBeCloseTo(0.25, 12);
    expect(result.counts.verdictFailed).toBe(2);
    expect(result.incomplete).toEqual([expect.stringContaining('2 verdict predictions failed or were unreadable')]);
    expect(result.summary['f1@1']?.versusBaseline?.test).toBe('bootstrap');
    expect(result.problems.filter((problem) => problem.code === 'verdict-unreadable').map((problem) => problem.id)).toEqual(['c3#-1', 'c3#0']);
  });

  it('offers an LLM-free verdict counterpart: NLI of the retrieved evidence against the claim', async () => {
    const verdictNli = createMockNliModel({ label: ({ premise }) => (premise.includes('Fox') ? 'entailment' : premise.includes('Spanish') ? 'contradiction' : 'neutral') });
    const result = await runLeakageStudy({ dataset, retriever: createMockRetriever(corpus), expander: scriptedExpander(), nli, repeats: 1, ks: [1], verdictNli, verdictLabels: ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'] });
    // Baseline top-1: c1 -> d1 (entails: SUPPORTS), c2 -> d2 (contradicts: REFUTES), c3 -> d3 and c4 -> d4 (neutral: NEI).
    expect(result.baselineRuns?.map((run) => run.verdicts?.['1'])).toEqual(['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO', 'NOT ENOUGH INFO']);
    // gold [S, R, R, R]: F1(S) = 1, F1(R) = 2 * 1 * (1/3) / (1 + 1/3) = 0.5, F1(NEI) = 0 -> macro 0.5.
    expect(result.baseline?.['f1@1']).toBeCloseTo(0.5, 12);
    expect(result.verdictModelId).toBe('nli-verdict(mock:nli)');
    await expect(runLeakageStudy({ dataset, retriever: createMockRetriever(corpus), expander: scriptedExpander(), nli, verdictNli, verdictModel: createMockLanguageModel() })).rejects.toThrow(/verdictNli/);
  });

  it('records empty generations, wrong language and unreadable NLI answers as problems and keeps every claim', async () => {
    const expander: QueryExpander = {
      id: 'odd-expander',
      usesLanguageModel: true,
      async expand({ query }) {
        const generation = query.id === 'c1' ? '' : query.id === 'c2' ? 'Telemundo是一家美国西班牙语电视网。' : 'Some text about towers.';
        return { id: query.id, text: generation || query.text, original: query, generations: [generation] };
      },
    };
    const unreadableNli: NliModel = {
      id: 'unreadable',
      async classify({ pairs }) {
        return { results: pairs.map(() => ({ label: null, raw: 'Hmm?', problem: 'answer names none of entailment, contradiction, neutral' })) };
      },
    };
    const result = await runLeakageStudy({ dataset, retriever: createMockRetriever(corpus), expander, nli: unreadableNli, repeats: 1, ks: [1], baseline: false });
    expect(result.runs.map((run) => run.claimId)).toEqual(['c1', 'c2', 'c3', 'c4']);
    const codes = result.problems.map((problem) => `${problem.id}:${problem.code}`);
    expect(codes).toEqual(expect.arrayContaining(['c1#0:empty-generation', 'c2#0:wrong-language', 'c3#0:nli-unreadable', 'c4#0:empty-evidence']));
    expect(result.problems.find((problem) => problem.code === 'nli-unreadable')?.raw).toBe('Hmm?');
    // No NLI label came back for c2 and c3: their match is unknown, in neither M nor ¬M. c1's empty generation has no
    // sentence to label (unmatched), so the matched proportion is 0 of 1 known claim — not 0 of 3.
    expect(result.runs.find((run) => run.claimId === 'c3')?.match?.matched).toBeNull();
    expect(result.counts.unknown).toBe(2);
    expect(result.matchedProportion).toMatchObject({ mean: 0, n: 1 });
    expect(result.incomplete.join(' ')).toMatch(/unknown match/);
  });

  it('never stops on a failing expander or retriever; records the problem', async () => {
    const expander = scriptedExpander();
    const failing: QueryExpander = {
      ...expander,
      async expand(request) {
        if (request.query.id === 'c2') throw new Error('rate limited');
        return expander.expand(request);
      },
    };
    const result = await runLeakageStudy({ dataset, retriever: createMockRetriever(corpus), expander: failing, nli, repeats: 1, ks: [1], baseline: false });
    expect(result.runs).toHaveLength(4);
    expect(result.problems).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'c2#0', code: 'expansion-failed', message: 'rate limited' })]));
    expect(result.runs.map((run) => run.failedStage)).toEqual([undefined, 'expansion', undefined, undefined]);
    expect(result.counts.expansionFailed).toBe(1);
    expect(result.baseline).toBeUndefined();
  });

  it('reads run state from typed fields: an expander problem that reuses a study code does not count as a failure', async () => {
    const expander = scriptedExpander();
    const noisy: QueryExpander = {
      ...expander,
      async expand(request) {
        const expanded = await expander.expand(request);
        return { ...expanded, problems: [...(expanded.problems ?? []), { code: 'expansion-failed', message: 'an expander note that only looks like a failure' }] };
      },
    };
    const failingRetriever = {
      ...createMockRetriever(corpus),
      id: 'flaky',
      async retrieve(): Promise<never> {
        throw new Error('index offline');
      },
    };
    const result = await runLeakageStudy({ dataset, retriever: failingRetriever, expander: noisy, nli, repeats: 1, ks: [1], baseline: false });
    expect(result.counts.expansionFailed).toBe(0);
    expect(result.counts.retrievalFailed).toBe(4);
    expect(result.runs.every((run) => run.failedStage === 'retrieval')).toBe(true);
  });

  it('runs matching only without a retriever, and scores evidence texts with an evidenceScorer (AVeriTeC)', async () => {
    const matchingOnly = await runLeakageStudy({ dataset, expander: scriptedExpander(), nli, repeats: 2, ks: [1] });
    expect(matchingOnly.metricNames).toEqual([]);
    expect(matchingOnly.baseline).toBeUndefined();
    expect(matchingOnly.retrieverId).toBe('none');
    expect(matchingOnly.matchedProportion?.mean).toBeCloseTo(2 / 3, 12);

    // A scorer that counts how many retrieved texts share a word with the gold evidence (hand-checkable).
    const seen: string[] = [];
    const evidenceScorer = {
      names: ['overlap'],
      async score({ claimId, texts, evidence, k }: { claimId: string; texts: readonly string[]; evidence: readonly string[]; k: number }) {
        seen.push(`${claimId}@${k}`);
        const words = new Set(
          evidence
            .join(' ')
            .toLowerCase()
            .split(/\W+/)
            .filter((word) => word.length > 3),
        );
        return {
          overlap:
            texts.filter((text) =>
              text
                .toLowerCase()
                .split(/\W+/)
                .some((word) => words.has(word)),
            ).length / k,
        };
      },
    };
    const scored = await runLeakageStudy({ dataset, retriever: createMockRetriever(corpus), expander: scriptedExpander(), nli, repeats: 1, ks: [1], evidenceScorer });
    expect(scored.metricNames).toEqual(['overlap@1']);
    // c4 has no gold evidence: not scored; c1–c3 retrieve their own document for the bare claim (overlap 1).
    expect(scored.baseline).toEqual({ 'overlap@1': 1 });
    expect(seen).toContain('c1@1');
    expect(seen.some((entry) => entry.startsWith('c4'))).toBe(false);
    expect(scored.problems.some((problem) => problem.code === 'no-qrels')).toBe(false);
  });

  it('validates options and rethrows aborts unchanged', async () => {
    const base = { dataset, retriever: createMockRetriever(corpus), expander: scriptedExpander(), nli };
    await expect(runLeakageStudy({ ...base, repeats: 0 })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(runLeakageStudy({ ...base, ks: [5, 5] })).rejects.toThrow(/ks/);
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(runLeakageStudy({ ...base, abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it('formats a paper-style Markdown report', async () => {
    const result = await runLeakageStudy({ dataset, retriever: createMockRetriever(corpus), expander: scriptedExpander(), nli, repeats: 2, ks: [1] });
    const report = formatLeakageReport(result, { methodName: 'Query2doc', baselineName: 'BM25' });
    expect(report).toContain('| Method | Data | Recall@1 | NDCG@1 |');
    expect(report).toContain('| BM25 | ALL | 100.0 | 100.0 |');
    expect(report).toContain('| Query2doc | ALL | 83.3±16.7 | 83.3±16.7 |');
    expect(report).toContain('|  | M | **100.0±0.0** | **100.0±0.0** |');
    expect(report).toContain('|  | ¬M | 0.0 | 0.0 |');
    expect(report).toContain('| Query2doc | 66.7±0.0 | 4 | 2 | 0 | 2 |');
    expect(report).toMatch(/\| Recall@1 \| [0-9.<]+ \(U=2\.0, n=2\/1\) \|/);
    expect(report).toContain('| empty-evidence | 2 |');
  });
});
