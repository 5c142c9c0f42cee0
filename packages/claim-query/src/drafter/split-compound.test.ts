import { describe, expect, it } from 'vitest';
import { draftClaimsAndQueries } from './draft-claims-and-queries.js';
import { sentenceSubject, splitCompoundSentence } from './split-compound.js';

describe('splitCompoundSentence', () => {
  it.each([
    ['He was born in Ulm and died in Princeton.', ['He was born in Ulm.', 'He died in Princeton.']],
    ['She won two Nobel prizes and discovered radium.', ['She won two Nobel prizes.', 'She discovered radium.']],
    ['Canberra, which is located inland, is the capital of Australia.', ['Canberra is the capital of Australia.', 'Canberra is located inland.']],
    ['Einstein, who was born in Germany, formulated relativity.', ['Einstein formulated relativity.', 'Einstein was born in Germany.']],
    ['The capital of Australia is Sydney, which is the largest city.', ['The capital of Australia is Sydney.', 'Sydney is the largest city.']],
    ['The Nile flows north, and it empties into the Mediterranean Sea.', ['The Nile flows north.', 'The Nile empties into the Mediterranean Sea.']],
  ])('%s', (sentence, claims) => {
    expect(splitCompoundSentence(sentence)).toEqual(claims);
  });
  it('leaves coordinated noun phrases and simple sentences whole', () => {
    expect(splitCompoundSentence('Marie Curie was a chemist and physicist.')).toEqual(['Marie Curie was a chemist and physicist.']);
    expect(splitCompoundSentence('Tom and Jerry are a cat and a mouse.')).toEqual(['Tom and Jerry are a cat and a mouse.']);
    expect(splitCompoundSentence('Paris is in France')).toEqual(['Paris is in France.']);
  });
  it('sentenceSubject is the words before the first verb', () => {
    expect(sentenceSubject('Mount Everest is the highest mountain.')).toBe('Mount Everest');
    expect(sentenceSubject('Hello there friend')).toBeUndefined();
  });
});

describe('draftClaimsAndQueries with splitCompound', () => {
  it('splits compounds into claims of the same sentence and names the answer subject for pronouns when the question has none', () => {
    const draft = draftClaimsAndQueries({ question: '', answer: 'Albert Einstein was born in Ulm and died in Princeton. He formulated relativity.' }, { splitCompound: true });
    expect(draft.pairs.map((p) => [p.claim.text, p.sentenceIndex])).toEqual([
      ['Albert Einstein was born in Ulm.', 0],
      ['Albert Einstein died in Princeton.', 0],
      ['Albert Einstein formulated relativity.', 1],
    ]);
    // Off by default (no measurable gain on the validation responses): one claim per sentence, pronoun kept.
    expect(draftClaimsAndQueries({ question: '', answer: 'Albert Einstein was born in Ulm and died in Princeton. He formulated relativity.' }).pairs.map((p) => p.claim.text)).toEqual([
      'Albert Einstein was born in Ulm and died in Princeton.',
      'He formulated relativity.',
    ]);
  });
});
