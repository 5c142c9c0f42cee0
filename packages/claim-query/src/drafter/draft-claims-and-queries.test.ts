import { describe, expect, it } from 'vitest';
import { draftClaimsAndQueries, extractKeyphrases, findQuestionSubject } from './draft-claims-and-queries.js';

describe('draftClaimsAndQueries (LLM-free baseline)', () => {
  it('splits sentences, replaces a leading pronoun with the question subject, and builds keyphrase queries', () => {
    const draft = draftClaimsAndQueries({
      question: 'How long did it take to complete the construction of the Acqua Felice aqueduct?',
      answer: 'The Acqua Felice aqueduct was completed in 1586. It took 27 years to build. I think it is beautiful.',
    });
    expect(draft.subject).toBe('Acqua Felice');
    expect(draft.pairs.map((p) => p.claim.text)).toEqual(['The Acqua Felice aqueduct was completed in 1586.', 'Acqua Felice took 27 years to build.']);
    expect(draft.pairs[1]?.sentenceIndex).toBe(1);
    expect(draft.pairs[0]?.query.text).toContain('Acqua Felice aqueduct');
    expect(draft.problems.map((p) => p.code)).toEqual(['no-factual-content']);
  });
  it('completes a bare short answer with the question', () => {
    const draft = draftClaimsAndQueries({ question: 'Where did Judas Iscariot lead the armed guard?', answer: 'In the Garden of Gethsemane.' });
    expect(draft.pairs[0]?.claim.text).toBe('Where did Judas Iscariot lead the armed guard: In the Garden of Gethsemane.');
  });
  it('handles Chinese: sentence split on 。, pronoun replacement, function characters dropped from the query', () => {
    const draft = draftClaimsAndQueries({ question: '长城有多长？', answer: '长城全长约21196千米。它始建于春秋战国时期。' });
    expect(draft.pairs).toHaveLength(2);
    expect(draft.pairs[1]?.claim.text).toBe('长城有多长始建于春秋战国时期。'.replace('长城有多长', draft.subject ?? ''));
    expect(draft.pairs[0]?.query.text).not.toMatch(/[。的]/u);
  });
  it('reports empty answers and answers without factual content', () => {
    expect(draftClaimsAndQueries({ question: 'q', answer: '' }).problems[0]?.code).toBe('empty-answer');
    const refusal = draftClaimsAndQueries({ question: '你毕业于哪所大学？', answer: '对不起，我不能提供我的个人信息。' });
    expect(refusal.pairs).toEqual([]);
    expect(refusal.problems.map((p) => p.code)).toEqual(['refusal', 'no-claims']);
  });
  it('cuts very long sentences into claims of bounded length', () => {
    const long = `${'Rome has many fountains, '.repeat(40)}and that is all.`;
    const draft = draftClaimsAndQueries({ question: 'What about Rome?', answer: long }, { maxClaimChars: 200 });
    expect(draft.pairs.length).toBeGreaterThan(4);
    for (const pair of draft.pairs) expect(pair.claim.text.length).toBeLessThanOrEqual(200 + 'Rome'.length + 20);
  });
});

describe('helpers', () => {
  it('RAKE keyphrases keep phrase order and drop stopwords', () => {
    expect(extractKeyphrases('The Acqua Felice aqueduct was completed in 1586.', 3)).toEqual(['Acqua Felice aqueduct', 'completed', '1586']);
  });
  it('question subjects', () => {
    expect(findQuestionSubject('When was the Eiffel Tower built?', 'en')).toBe('Eiffel Tower');
    expect(findQuestionSubject('what is this?', 'en')).toBeUndefined();
    expect(findQuestionSubject('鲁迅是哪一年出生的？', 'zh')).toBe('鲁迅');
  });
});

describe('bad input (property, seeded)', () => {
  it('never throws; every pair has a claim and a query; sentence indexes are valid', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 60 }), (answer, question) => {
        const draft = draftClaimsAndQueries({ question, answer });
        for (const pair of draft.pairs) {
          expect(pair.claim.text.length).toBeGreaterThan(0);
          expect(pair.query.text.length).toBeGreaterThan(0);
          expect(pair.sentenceIndex).toBeLessThan(draft.sentences.length);
        }
      }),
    );
  });
  it('mixed CJK/Latin answers', () => {
    const draft = draftClaimsAndQueries({ question: 'Where is 北京?', answer: '北京 is the capital of China。它 has 21 million people.' });
    expect(draft.pairs.length).toBeGreaterThan(0);
  });
});
