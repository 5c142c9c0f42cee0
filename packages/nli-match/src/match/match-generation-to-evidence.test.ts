import { describe, expect, it } from 'vitest';
import type { NliModel, NliPair } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createMockNliModel } from '@factkit/core/testing';
import { matchGenerationToEvidence, matchGenerationsToEvidence, segmentGeneration } from './match-generation-to-evidence.js';

// FEVER-lite validation-0 (detokenized evidence).
const claim = 'Fox 2000 Pictures released the film Soul Food.';
const evidence = ['Soul Food is a 1997 American comedy-drama film produced by Kenneth "Babyface" Edmonds, Tracey Edmonds and Robert Teitel and released by Fox 2000 Pictures.'];

// A transparent NLI stand-in: entailment iff every hypothesis word occurs in the premise (core mock default).
const wordNli = () => createMockNliModel();
// Same, ignoring short function words ("the", "is"), so a restatement of the claim is entailed by its evidence.
const contentWordNli = () =>
  createMockNliModel({
    label: ({ premise, hypothesis }) => {
      const words = (text: string) =>
        text
          .toLowerCase()
          .match(/[a-z0-9]+/g)
          ?.filter((word) => word.length > 3 || /\d/.test(word)) ?? [];
      const premiseWords = new Set(words(premise));
      const hypothesisWords = words(hypothesis);
      return hypothesisWords.length > 0 && hypothesisWords.every((word) => premiseWords.has(word)) ? 'entailment' : 'neutral';
    },
  });

describe('matchGenerationToEvidence: hand-checked cases', () => {
  it('matches a generation that copies the gold evidence, with that pair as provenance', async () => {
    const generation = `Soul Food is a film about a family. ${evidence[0]} It was well received.`;
    const result = await matchGenerationToEvidence({ claim, generation, evidence, nli: wordNli() });
    expect(result.matched).toBe(true);
    expect(result.sentences).toHaveLength(3);
    expect(result.labels).toEqual([['neutral', 'entailment', 'neutral']]);
    expect(result.entailingPairs).toEqual([{ evidenceIndex: 0, sentenceIndex: 1, evidence: evidence[0], sentence: evidence[0], score: 1 }]);
    expect(result.problems).toEqual([]);
  });

  it('filters a sentence restating the claim (ROUGE-2 >= 0.95), so restating alone does not match', async () => {
    const generation = 'Fox 2000 Pictures released the film Soul Food. The weather in Paris was mild that year.';
    // Without the filter the restatement would be entailed (all its words are in the evidence).
    const unfiltered = await contentWordNli().classify({ pairs: [{ premise: evidence[0] as string, hypothesis: claim }] });
    expect(unfiltered.results[0]?.label).toBe('entailment');
    const result = await matchGenerationToEvidence({ claim, generation, evidence, nli: contentWordNli() });
    expect(result.removedSentences).toEqual([{ text: claim, rouge2: 1 }]);
    expect(result.sentences).toEqual(['The weather in Paris was mild that year.']);
    expect(result.matched).toBe(false);
    expect(result.entailingPairs).toEqual([]);
  });

  it('keeps a near-restatement below the threshold (6 of 7 bigrams shared: F = 6/7)', () => {
    const { sentences, removed } = segmentGeneration(claim, 'Fox 2000 Pictures released the film Soul Kitchen.');
    expect(removed).toEqual([]);
    expect(sentences).toEqual(['Fox 2000 Pictures released the film Soul Kitchen.']);
    const strict = segmentGeneration(claim, 'Fox 2000 Pictures released the film Soul Kitchen.', { reproductionThreshold: 0.85 });
    expect(strict.removed[0]?.rouge2).toBeCloseTo(6 / 7, 12);
  });

  it('filters Chinese claim reproductions by character bigrams and segments Chinese sentences', () => {
    const zhClaim = '北京是中国的首都。';
    const { sentences, removed } = segmentGeneration(zhClaim, '北京是中国的首都。它有三千多年的历史！');
    expect(removed.map((sentence) => sentence.text)).toEqual(['北京是中国的首都。']);
    expect(sentences).toEqual(['它有三千多年的历史！']);
  });

  it('labels every (evidence, sentence) pair: m x n matrix in evidence-major order', async () => {
    const nli = wordNli();
    const result = await matchGenerationToEvidence({
      claim: 'Paris is big.',
      generation: 'Paris is in France. Lyon is in France. Berlin is in Germany.',
      evidence: ['Paris is in France.', 'Berlin is in Germany.'],
      nli,
    });
    expect(result.labels).toEqual([
      ['entailment', 'neutral', 'neutral'],
      ['neutral', 'neutral', 'entailment'],
    ]);
    expect(nli.calls.flatMap((call) => call.pairs)).toHaveLength(6);
    expect(result.entailingPairs.map((pair) => [pair.evidenceIndex, pair.sentenceIndex])).toEqual([
      [0, 0],
      [1, 2],
    ]);
  });

  it('applies the aggregation option (majority needs more than half of the evidence items covered)', async () => {
    const request = {
      claim: 'Paris is big.',
      generation: 'Paris is in France. Rome is in Italy.',
      evidence: ['Paris is in France.', 'Berlin is in Germany.'],
      nli: wordNli(),
    };
    expect((await matchGenerationToEvidence(request)).matched).toBe(true);
    const majority = await matchGenerationToEvidence({ ...request, aggregation: 'majority' });
    expect(majority).toMatchObject({ matched: false, score: 0.5 });
    expect((await matchGenerationToEvidence({ ...request, aggregation: { type: 'threshold', minFraction: 0.5 } })).matched).toBe(true);
  });
});

describe('matchGenerationToEvidence: bad input becomes problems', () => {
  it('empty generation: unmatched with a problem', async () => {
    const result = await matchGenerationToEvidence({ claim, generation: '   ', evidence, nli: wordNli() });
    expect(result.matched).toBe(false);
    expect(result.problems.map((problem) => problem.code)).toEqual(['empty-generation']);
  });

  it('refusal and wrong language are flagged and still matched', async () => {
    const refusal = await matchGenerationToEvidence({ claim, generation: "I'm sorry, but I can't help with that request.", evidence, nli: wordNli() });
    expect(refusal.problems.map((problem) => problem.code)).toContain('refusal');
    expect(refusal.matched).toBe(false);
    const chinese = await matchGenerationToEvidence({ claim, generation: '《灵魂食物》是一部1997年的美国电影。', evidence, nli: wordNli(), language: 'en' });
    expect(chinese.problems.map((problem) => problem.code)).toEqual(['wrong-language']);
  });

  it('no gold evidence: matched is null (cannot decide) with a problem', async () => {
    const result = await matchGenerationToEvidence({ claim, generation: 'Anything at all.', evidence: ['', '  '], nli: wordNli() });
    expect(result.matched).toBeNull();
    expect(result.noEvidence).toBe(true);
    expect(result.problems.map((problem) => problem.code)).toEqual(['blank-evidence-item', 'empty-evidence']);
  });

  it('NLI answers that are not a label are kept as null labels with the raw text', async () => {
    const nli: NliModel = {
      id: 'odd',
      async classify({ pairs }) {
        return { results: pairs.map(() => ({ label: null, raw: 'Perhaps?', problem: 'answer names none of entailment, contradiction, neutral' })) };
      },
    };
    const result = await matchGenerationToEvidence({ claim, generation: 'One sentence here.', evidence, nli });
    expect(result.labels).toEqual([[null]]);
    // No label came back, so nothing decides the match: unknown, not unmatched.
    expect(result.matched).toBeNull();
    expect(result.problems).toEqual([expect.objectContaining({ code: 'nli-unreadable', raw: 'Perhaps?' }), expect.objectContaining({ code: 'match-unknown' })]);
  });

  it('validates options with typed errors', async () => {
    await expect(matchGenerationToEvidence({ claim, generation: 'x', evidence, nli: undefined as unknown as NliModel })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(matchGenerationToEvidence({ claim, generation: 'x', evidence, nli: wordNli(), reproductionThreshold: 2 })).rejects.toThrow(/reproductionThreshold/);
    await expect(matchGenerationToEvidence({ claim, generation: 'x', evidence, nli: wordNli(), aggregation: 'mode' as 'any' })).rejects.toThrow(/aggregation/);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(matchGenerationToEvidence({ claim, generation: 'x.', evidence, nli: wordNli(), abortSignal: controller.signal })).rejects.toBe(reason);
  });
});

describe('long premises and batching', () => {
  it('splits a premise longer than the model window into sentence windows; entailment if any window entails', async () => {
    const seen: NliPair[] = [];
    const nli: NliModel = {
      id: 'short-window',
      maxInputLength: 12,
      maxBatchSize: 2,
      async classify({ pairs }) {
        seen.push(...pairs);
        if (pairs.length > 2) throw new Error('batch too large');
        return {
          results: pairs.map((pair) => {
            if (pair.premise.split(/\s+/).length > 12) throw new Error('premise too long');
            return { label: pair.premise.includes(pair.hypothesis) ? 'entailment' : 'neutral' };
          }),
        };
      },
    };
    const longEvidence = 'The museum opened in 1901 after ten years of building work. It holds eleven thousand paintings. Its director since 2015 is Anna Berg.';
    const result = await matchGenerationToEvidence({ claim: 'The museum is old.', generation: 'It holds eleven thousand paintings.', evidence: [longEvidence], nli });
    expect(result.matched).toBe(true);
    expect(seen.every((pair) => pair.premise.split(/\s+/).length <= 12)).toBe(true);
    // 11 + 5 + 7 words: windows [s1] and [s2 s3] (5 + 7 = 12 <= 12).
    expect(seen.map((pair) => pair.premise)).toEqual(['The museum opened in 1901 after ten years of building work.', 'It holds eleven thousand paintings. Its director since 2015 is Anna Berg.']);
  });

  it('a failing NLI batch becomes per-pair problems; other batches are kept', async () => {
    let call = 0;
    const nli: NliModel = {
      id: 'flaky',
      maxBatchSize: 1,
      async classify({ pairs }) {
        call += 1;
        if (call === 1) throw new Error('HTTP 500');
        return { results: pairs.map(() => ({ label: 'entailment' as const })) };
      },
    };
    const result = await matchGenerationToEvidence({ claim, generation: 'First one. Second one.', evidence, nli });
    expect(result.labels).toEqual([[null, 'entailment']]);
    expect(result.matched).toBe(true);
    expect(result.problems[0]?.message).toMatch(/HTTP 500/);
  });
});

describe('matchGenerationsToEvidence', () => {
  it('matches many claims, keeps order, records per-item problems with index and id', async () => {
    const progress: number[] = [];
    const { results, problems } = await matchGenerationsToEvidence({
      items: [
        { id: 'a', claim, generation: evidence[0] as string, evidence },
        { id: 'b', claim, generation: '', evidence },
        { id: 'c', claim, generation: 'Something.', evidence: [] },
      ],
      nli: wordNli(),
      onProgress: ({ completed }) => progress.push(completed),
    });
    expect(results.map((result) => result.matched)).toEqual([true, false, null]);
    expect(problems).toEqual([expect.objectContaining({ index: 1, id: 'b', code: 'empty-generation' }), expect.objectContaining({ index: 2, id: 'c', code: 'empty-evidence' })]);
    expect(progress).toEqual([1, 2, 3]);
  });
});
