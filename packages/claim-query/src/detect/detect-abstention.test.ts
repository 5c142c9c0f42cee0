import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectAbstention } from './detect-abstention.js';

// Hand-written: answers that abstain as a whole.
const ABSTAINING = [
  "I don't know.",
  'I do not know the answer to that question.',
  "I'm not sure.",
  'I am not certain about the exact date.',
  'I have no idea who won the 1950 final.',
  "I don't have information about the population of that village.",
  'I cannot answer that.',
  "I couldn't find any information on that person.",
  "I'm sorry, but I don't know.",
  "I'm sorry, but I can't help with that.",
  'There is no reliable information about his early life.',
  'Unknown.',
  'No idea!',
  '我不知道。',
  '抱歉，我无法回答这个问题。',
];

// Hand-written: sentences that state something to check.
const FACTUAL = ['Canberra is the capital of Australia.', 'The Acqua Felice aqueduct was completed in 1586.', 'It was released by Fox 2000 Pictures.', 'Soul Food is a 1997 film.'];

const FILLER = ['Sorry.', 'You may want to check an encyclopedia.', 'Is there anything else I can help with?', 'Please consult the official records.'];

describe('detectAbstention', () => {
  it('finds hand-written abstentions and refusals, with the sentence and its kind', () => {
    for (const answer of ABSTAINING) expect(detectAbstention(answer), answer).toBeDefined();
    expect(detectAbstention("I'm not sure.")).toEqual({ sentence: "I'm not sure.", kind: 'abstention' });
    expect(detectAbstention("I'm sorry, but I can't help with that.")?.kind).toMatch(/refusal|abstention/);
    expect(detectAbstention('As an AI language model, I cannot provide that information.')?.kind).toBe('refusal');
  });

  it('negated, hedged and titled forms that go on to say something are not abstentions', () => {
    const answers = [
      "I don't know why anyone doubts it, but Canberra is the capital of Australia.",
      "I don't know why anyone doubts it. Canberra is the capital of Australia.",
      "I'm not sure, but I think it was released in 1997.",
      "I'm not sure about the year; it was released by Fox 2000 Pictures.",
      "I don't know. But I think it is Paris.",
      'Unknown Pleasures is the debut album of Joy Division.',
      'There is no data showing that the bridge collapsed.',
      "I Don't Know How to Love Him is a song from Jesus Christ Superstar.",
      "I'm Sorry is a 1960 song by Brenda Lee.",
      'Nobody knows the exact date, though records suggest 1550.',
      '',
      '   ',
    ];
    for (const answer of answers) expect(detectAbstention(answer), answer).toBeUndefined();
  });

  it('property: an abstention with only filler around it abstains; one factual sentence anywhere makes it an answer', () => {
    const pick = (list: readonly string[]) => fc.constantFrom(...list);
    fc.assert(
      fc.property(pick(ABSTAINING.filter((a) => /^[\x20-\x7e]+$/.test(a))), fc.array(pick(FILLER), { maxLength: 2 }), pick(FACTUAL), fc.nat(3), (abstention, filler, fact, at) => {
        const parts = [abstention, ...filler];
        expect(detectAbstention(parts.join(' '))).toBeDefined();
        parts.splice(Math.min(at, parts.length), 0, fact);
        expect(detectAbstention(parts.join(' '))).toBeUndefined();
      }),
    );
  });

  it('property: a clause joined with "but"/"though"/";" after the abstention phrase is a hedge, not an abstention', () => {
    fc.assert(
      fc.property(fc.constantFrom("I don't know", "I'm not sure", 'I am not certain', 'I have no idea'), fc.constantFrom(', but ', '; ', ', though ', ' but '), fc.constantFrom(...FACTUAL), (phrase, joint, fact) => {
        expect(detectAbstention(`${phrase}${joint}${fact.charAt(0).toLowerCase()}${fact.slice(1)}`)).toBeUndefined();
      }),
    );
  });

  it('property: pure and total: never throws, same answer for the same text, insensitive to case, curly quotes and outer whitespace', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const first = detectAbstention(text);
        expect(detectAbstention(text)).toEqual(first);
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...ABSTAINING.slice(0, 11), ...FACTUAL), fc.boolean(), fc.constantFrom('', ' ', '\n  '), (text, upper, pad) => {
        const variant = `${pad}${(upper ? text.toUpperCase() : text.toLowerCase()).replace(/'/g, '\u2019')}${pad}`;
        expect(detectAbstention(variant) === undefined).toBe(detectAbstention(text) === undefined);
      }),
    );
  });

  it('property: lorem-ipsum prose never abstains', () => {
    fc.assert(
      fc.property(fc.lorem({ maxCount: 30, mode: 'sentences' }), (text) => {
        expect(detectAbstention(text)).toBeUndefined();
      }),
    );
  });
});
