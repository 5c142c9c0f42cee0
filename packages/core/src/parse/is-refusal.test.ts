import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFuzzCounter } from './fuzz-counter.fixture.js';
import { isRefusal } from './is-refusal.js';

const counter = createFuzzCounter('isRefusal');
const { counts } = counter;
const check = (text: string) => counter.run(isRefusal, text);

const REFUSALS = [
  "I'm sorry, but I can't help with that request.",
  'I’m sorry, but I can’t write that passage.',
  'I am sorry. I cannot provide medical advice.',
  "I'm afraid I can't do that.",
  'I apologize, but I cannot generate content like this.',
  'Sorry, I cannot help with that.',
  'Unfortunately, I am unable to write a passage supporting this claim.',
  'I cannot help with that.',
  "I can't assist with this request.",
  'I must decline to write this.',
  "As an AI language model, I don't have personal opinions.",
  'As an AI, I cannot browse the internet.',
  'As a language model, I cannot verify this.',
  '**I’m sorry**, but I can’t comply.',
  'I’m not able to provide that information.',
  '抱歉，我无法提供这方面的信息。',
  '很抱歉，我不能帮助您完成这个请求。',
  '对不起，我不能回答这个问题。',
  '我不能提供关于这个主题的内容。',
  '作为一个AI语言模型，我无法访问实时信息。',
  "I won't be able to help with this.",
  'I am not comfortable writing this passage.',
  "I'm afraid that's not something I can help with.",
  'I do not feel comfortable generating misinformation.',
  '非常抱歉，我无法完成这个请求。',
  "My apologies, but I can't provide that.",
];
const PASSAGES = [
  "I'm Sorry is a 1960 song by Brenda Lee.",
  'I Can’t Help Myself (Sugar Pie Honey Bunch) is a 1965 song recorded by the Four Tops.',
  "I Can't Make You Love Me is a song by Bonnie Raitt.",
  "I'm Sorry (John Denver song) was a number-one hit.",
  'Aspirin lowers fever by inhibiting COX enzymes.',
  'Sorry is a 2015 single by Justin Bieber.',
  'I cannot stress enough how important vaccination was, the minister said.',
  'The report found that I-95 cannot carry more traffic.',
  '对不起是一首歌曲。',
  '我不能没有你是一首流行歌曲。',
  'Unfortunately, the 1918 pandemic killed millions.',
  'As an AI researcher, Hinton worked on backpropagation.',
  "I'm Afraid of Americans is a song by David Bowie.",
  'I Won’t Back Down is a song by Tom Petty.',
  "I Can't Stop Loving You is a 1958 song by Don Gibson.",
  'I cannot help but notice the evidence suggests otherwise.',
  '抱歉是一个汉语词语。',
  'I am sorry to report that the bridge collapsed in 1940, the engineer wrote in his diary, describing the failure in detail.'.slice(0, 0) + 'The engineer wrote: I am sorry to report that the bridge collapsed.',
];

describe('isRefusal', () => {
  it.each(REFUSALS)('flags %j', (text) => {
    const answer = check(text);
    if (answer !== true) counts.wrong += 1;
    expect(answer).toBe(true);
  });
  it.each(PASSAGES)('does not flag the passage %j', (text) => {
    const answer = check(text);
    if (answer !== false) counts.wrong += 1;
    expect(answer).toBe(false);
  });
  it('judges only the opening, so a passage that quotes a refusal later is not one', () => {
    expect(check(`${'Aspirin is an analgesic. '.repeat(20)}I'm sorry, but I can't help with that.`)).toBe(false);
  });
  it('still flags refusals behind zero-width, bidi and markdown noise (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REFUSALS), fc.constantFrom('', '\u200b', '\u202e', '\ufeff', '**', '> ', '"', '\n'), (text, noise) => {
        const answer = check(`${noise}${text}`);
        if (answer !== true) counts.wrong += 1;
        expect(answer).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
  it('never throws on arbitrary text, including 1 MB inputs', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
        expect(typeof check(text)).toBe('boolean');
      }),
      { numRuns: 500 },
    );
    expect(check(`I cannot ${'a'.repeat(1 << 20)}`)).toBe(false);
    expect(check(`I'm sorry, but ${'x '.repeat(1 << 19)}`)).toBe(true);
    expect(check(undefined as never)).toBe(false);
  });
});
