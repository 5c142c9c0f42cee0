import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRefusal } from '@factkit/core';
import { cleanGeneration, detectScript, parseGeneration } from './parse-generation.js';

describe('parseGeneration', () => {
  it('keeps a normal passage and strips an echoed label, code fence and think block', () => {
    expect(parseGeneration('  Passage: Aspirin inhibits COX-1.  ').text).toBe('Aspirin inhibits COX-1.');
    expect(parseGeneration('```\nAspirin inhibits COX-1.\n```').text).toBe('Aspirin inhibits COX-1.');
    expect(parseGeneration('<think>hmm, a claim</think>\nAspirin inhibits COX-1.').text).toBe('Aspirin inhibits COX-1.');
    expect(parseGeneration('"Aspirin inhibits COX-1."').text).toBe('Aspirin inhibits COX-1.');
    expect(parseGeneration('Claim: Aspirin lowers fever.\nPassage: Aspirin inhibits COX-1.').text).toBe('Aspirin inhibits COX-1.');
    expect(parseGeneration('Question: Who?\n\nPassage:\nSomeone did.').text).toBe('Someone did.');
    // A passage that merely starts with a label-like word keeps its text.
    expect(parseGeneration('Claim: the drug works. Evidence shows otherwise.').text).toBe('Claim: the drug works. Evidence shows otherwise.');
    expect(parseGeneration('Aspirin inhibits COX-1.').problem).toBeUndefined();
  });

  it('flags empty generations', () => {
    for (const raw of ['', '   ', '\n\n', '...', '```\n```', 'Passage:']) {
      expect(parseGeneration(raw).problem?.code, JSON.stringify(raw)).toBe('empty');
    }
  });

  it('flags a missing (non-string) generation', () => {
    expect(parseGeneration(undefined).problem?.code).toBe('missing');
    expect(parseGeneration(null).problem?.code).toBe('missing');
    expect(parseGeneration(42).problem?.code).toBe('missing');
  });

  it.each([
    "I'm sorry, but I can't help with that request.",
    'I’m sorry, I cannot write a passage supporting misinformation.',
    'I am unable to provide a passage that verifies this claim.',
    'Sorry, but I cannot assist with that.',
    'As an AI language model, I cannot browse the internet to verify claims.',
    'I cannot fulfill this request because it could spread misinformation.',
    '很抱歉，我无法提供这方面的信息。',
  ])('flags the refusal %s', (raw) => {
    expect(parseGeneration(raw).problem?.code).toBe('refusal');
  });

  it.each([
    'The drug cannot help patients with late-stage disease, the trial found.',
    'Researchers are sorry to report that the vaccine trial failed.',
    'Ruth Bader Ginsburg fought cancer for decades. In a 2019 interview she said "I cannot stop working."',
    'We cannot confirm the claim; the evidence is mixed.',
  ])('does not flag the passage %s', (raw) => {
    expect(isRefusal(raw)).toBe(false);
    expect(parseGeneration(raw, { query: 'a claim in English' }).problem).toBeUndefined();
  });

  it('flags a generation in another script than the query', () => {
    const english = parseGeneration('阿司匹林可以降低发烧，这是一项研究发现的结果。', { query: 'Aspirin lowers fever.' });
    expect(english.problem?.code).toBe('wrong-language');
    expect(english.problem?.message).toContain('latin');
    const chinese = parseGeneration('Aspirin is a nonsteroidal anti-inflammatory drug.', { query: '阿司匹林能退烧吗？' });
    expect(chinese.problem?.code).toBe('wrong-language');
    const russian = parseGeneration('Аспирин снижает температуру.', { query: 'Aspirin lowers fever.' });
    expect(russian.problem?.code).toBe('wrong-language');
  });

  it('accepts same-script generations with some foreign terms', () => {
    expect(parseGeneration('阿司匹林（Aspirin）是一种常用的解热镇痛药，可以降低发烧。', { query: '阿司匹林能退烧吗？' }).problem).toBeUndefined();
    expect(parseGeneration('Aspirin (阿司匹林) lowers fever in most adults, according to trials.', { query: 'Aspirin lowers fever.' }).problem).toBeUndefined();
    // A query of digits and symbols has no script: nothing to compare.
    expect(parseGeneration('Deux plus deux font quatre.', { query: '2 + 2 = 4' }).problem).toBeUndefined();
  });

  it('detectScript finds the dominant writing system', () => {
    expect(detectScript('Hello world')?.script).toBe('latin');
    expect(detectScript('東京は日本の首都です')?.script).toBe('cjk');
    expect(detectScript('서울은 한국의 수도')?.script).toBe('hangul');
    expect(detectScript('12 34')).toBeUndefined();
  });

  it('never throws and always returns strings (fuzz)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.anything()), fc.option(fc.string({ unit: 'grapheme' })), (raw, query) => {
        const parsed = parseGeneration(raw, query === null ? {} : { query });
        expect(typeof parsed.text).toBe('string');
        expect(typeof parsed.raw).toBe('string');
        if (parsed.problem === undefined) expect(parsed.text.trim().length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('cleaning is idempotent on its own output for ordinary passages (fuzz)', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 12 }), (words) => {
        const passage = `${words.join(' ')}.`;
        expect(cleanGeneration(passage)).toBe(passage);
        expect(cleanGeneration(`Passage: ${passage}`)).toBe(passage);
      }),
    );
  });
});
