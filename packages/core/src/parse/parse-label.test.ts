import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NLI_LABELS } from '../nli-model.js';
import { createFuzzCounter } from './fuzz-counter.fixture.js';
import { AVERITEC_OPTIONS, FEVER_OPTIONS, LABEL_CORPUS, NLI_OPTIONS } from './label-corpus.fixture.js';
import { createLabelParser, parseLabel, type LabelParse } from './parse-label.js';

// Counts quoted in reports: replies tried, throws, wrong labels, and the corpus tally (printed after the suite).
const corpus = { exact: 0, abstained: 0, size: 0, wrong: 0 };
const counter = createFuzzCounter('parseLabel', () => `; corpus ${corpus.size} replies: ${corpus.exact} read right, ${corpus.abstained} left ambiguous, ${corpus.wrong} wrong`);
const { counts } = counter;
const tryParse = <L extends string>(parse: (reply: string) => LabelParse<L>, reply: string) => counter.run(parse, reply);

const nli = createLabelParser({ labels: NLI_LABELS, aliases: NLI_OPTIONS.aliases });
const fever = createLabelParser(FEVER_OPTIONS);

describe('parseLabel', () => {
  it.each([
    ['entailment', 'entailment'],
    ['Entailment.', 'entailment'],
    ['  NEUTRAL\n', 'neutral'],
    ['**Contradiction**', 'contradiction'],
    ['Label: entailment', 'entailment'],
    ['Answer - Neutral', 'neutral'],
    ['The answer is: neutral.', 'neutral'],
    ['### Final label\n**Contradiction**', 'contradiction'],
    ['> entailment', 'entailment'],
    ['`entailment`', 'entailment'],
    ['Entailed', 'entailment'],
    ['S2 contradicts S1.', 'contradiction'],
    ['Entailment. The premise clearly states the same fact, so it is not a contradiction.', 'entailment'],
    ['<think>maybe neutral, maybe not</think>\nEntailment', 'entailment'],
    ['```\nneutral\n```', 'neutral'],
    ['蕴含', 'entailment'],
    ['矛盾。', 'contradiction'],
  ] as const)('reads %j as %s', (reply, label) => {
    expect(nli(reply)).toEqual({ label, value: label, problems: [] });
  });

  it('reads verdict labels, longer labels first, and the given spelling', () => {
    expect(fever('supports.').label).toBe('SUPPORTS');
    expect(fever('Label: NOT ENOUGH INFO').label).toBe('NOT ENOUGH INFO');
    expect(fever('The verdict is REFUTES because evidence 2 says otherwise.').label).toBe('REFUTES');
    expect(parseLabel('Not Supported', { labels: ['Supported', 'Not Supported'] }).label).toBe('Not Supported');
    expect(parseLabel('Supported', { labels: ['Supported', 'Not Supported'] }).label).toBe('Supported');
    expect(parseLabel('Conflicting Evidence / Cherrypicking.', AVERITEC_OPTIONS).label).toBe('Conflicting Evidence/Cherrypicking');
  });

  it('gives problem codes empty-reply, no-label and ambiguous-label', () => {
    expect(nli('').problems[0]?.code).toBe('empty-reply');
    expect(nli(' ** ').problems[0]?.code).toBe('empty-reply');
    expect(nli(undefined as never).problems[0]?.code).toBe('empty-reply');
    expect(nli('I cannot determine that.').problems[0]?.code).toBe('no-label');
    expect(nli('Yes').problems[0]?.code).toBe('no-label');
    expect(nli('not entailment').problems[0]?.code).toBe('ambiguous-label');
    expect(nli('entailment or neutral').problems[0]?.code).toBe('ambiguous-label');
    expect(nli('not entailment').label).toBeUndefined();
  });

  it('a later explicit self-correction wins over the label it retracts (issue 21 §5)', () => {
    expect(parseLabel('Entailment. Wait, no: neutral.', { labels: NLI_LABELS }).label).toBe('neutral');
    const corrections = ['Wait, no:', 'Actually,', 'On second thought,', 'Correction:', 'Scratch that,', 'Wait —'];
    fc.assert(
      fc.property(fc.constantFrom(...NLI_LABELS), fc.constantFrom(...NLI_LABELS), fc.constantFrom(...corrections), fc.constantFrom('', 'Label: ', '**Answer:** '), (first, second, correction, prefix) => {
        fc.pre(first !== second);
        expect(parseLabel(`${prefix}${first}. ${correction} ${second}.`, { labels: NLI_LABELS }).label).toBe(second);
      }),
      { seed: 21, numRuns: 200 },
    );
  });

  it('uses negations only when given', () => {
    expect(parseLabel('not yes', { labels: ['yes', 'no'] }).label).toBeUndefined();
    expect(parseLabel('not yes', { labels: ['yes', 'no'], negations: { yes: 'no' } }).label).toBe('no');
  });

  it('rejects bad options with a typed error', () => {
    expect(() => parseLabel('x', { labels: [] })).toThrow(/labels/);
    expect(() => parseLabel('x', { labels: ['a'], aliases: { b: 'c' as 'a' } })).toThrow(/aliases\.b/);
    expect(() => parseLabel('x', { labels: ['a', 'b'], aliases: { a: 'b' } })).toThrow(/both/);
    expect(() => parseLabel('x', { labels: ['**'] })).toThrow(/no letters/);
  });
});

describe('parseLabel on the negation and hedge corpus', () => {
  for (const [name, { options, entries }] of Object.entries(LABEL_CORPUS)) {
    it(`${name}: never reads a negated or hedged label as that label (${entries.length} replies)`, () => {
      const parse = createLabelParser(options);
      const wrong: string[] = [];
      for (const [reply, expected] of entries) {
        corpus.size += 1;
        const parsed = tryParse(parse, reply);
        if (parsed?.label === undefined) {
          if (expected === null) corpus.exact += 1;
          else corpus.abstained += 1;
          expect(parsed?.problems.length, reply).toBeGreaterThan(0);
          continue;
        }
        if (parsed.label === expected) corpus.exact += 1;
        else {
          counts.wrong += 1;
          corpus.wrong += 1;
          wrong.push(`${JSON.stringify(reply)} read as ${parsed.label}, means ${expected ?? 'no single label'}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('reads at least 85% of the corpus exactly (the rest left ambiguous, never wrong)', () => {
    const all = Object.values(LABEL_CORPUS).flatMap(({ options, entries }) => entries.map(([reply, expected]) => ({ parse: createLabelParser(options), reply, expected })));
    const exact = all.filter(({ parse, reply, expected }) => (parse(reply).label ?? null) === expected).length;
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(exact / all.length).toBeGreaterThanOrEqual(0.85);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Property suites: mutated replies.

const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'];
const BIDI = ['\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const HOMOGLYPH_OF: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', i: 'і', x: 'х', y: 'у' };

/** Inserts invisible characters at random positions. */
const withInvisible = (text: string, positions: readonly number[], chars: readonly string[]) => {
  let out = text;
  positions.forEach((position, index) => {
    const at = position % (out.length + 1);
    out = out.slice(0, at) + (chars[index % chars.length] as string) + out.slice(at);
  });
  return out;
};
const homoglyphs = (text: string, mask: readonly boolean[]) => [...text].map((char, index) => (mask[index % mask.length] ? (HOMOGLYPH_OF[char] ?? char) : char)).join('');

const prefix = fc.constantFrom('', 'Label: ', 'Answer - ', 'The answer is ', '**Answer:** ', '## Verdict\n', '> ', 'Final answer: ', 'I would say ');
const suffix = fc.constantFrom('', '.', '!', '\n', ' (see the premise)', '. The premise restates the hypothesis.', '\nExplanation: same facts.', '**');
const wrapper = fc.constantFrom<[string, string]>(['', ''], ['**', '**'], ['"', '"'], ['`', '`'], ['```\n', '\n```'], ['_', '_']);
const casing = fc.array(fc.boolean(), { minLength: 40, maxLength: 40 });
const recase = (text: string, mask: readonly boolean[]) => [...text].map((char, index) => (mask[index % mask.length] ? char.toUpperCase() : char)).join('');

describe('parseLabel properties (seeded fast-check)', () => {
  const labelSets = [
    { parse: nli, labels: NLI_LABELS as readonly string[] },
    { parse: fever, labels: FEVER_OPTIONS.labels as readonly string[] },
    { parse: createLabelParser(AVERITEC_OPTIONS), labels: AVERITEC_OPTIONS.labels as readonly string[] },
  ];
  const set = fc.constantFrom(...labelSets);

  it('reads a plain answer under case, markdown, prefixes, trailing prose, invisible characters and homoglyphs', () => {
    fc.assert(
      fc.property(
        set.chain((entry) => fc.tuple(fc.constant(entry), fc.constantFrom(...entry.labels))),
        prefix,
        suffix,
        wrapper,
        casing,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        ([entry, label], before, after, [open, close], mask, positions, glyphMask) => {
          const reply = recase(`${before}${open}${label}${close}${after}`, mask);
          const mutated = homoglyphs(withInvisible(reply, positions, [...ZERO_WIDTH, ...BIDI]), glyphMask);
          const parsed = tryParse(entry.parse, mutated);
          if (parsed?.label !== label) counts.wrong += parsed?.label === undefined ? 0 : 1;
          expect(parsed?.label, JSON.stringify(mutated)).toBe(label);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('never reads a negated label as that label', () => {
    const negation = fc.constantFrom('not ', 'NOT ', 'It is not ', 'This is not ', 'Definitely not ', 'no ', 'Cannot be ', 'Not quite ', 'Answer: not ', '**Not** ');
    const postNegation = fc.constantFrom(' is not correct', ' is wrong', " isn't right", ' does not apply', ' is incorrect here', ': no');
    fc.assert(
      fc.property(
        set.chain((entry) => fc.tuple(fc.constant(entry), fc.constantFrom(...entry.labels.filter((label) => !label.startsWith('Not ') && !label.startsWith('NOT '))))),
        fc.boolean(),
        negation,
        postNegation,
        suffix,
        casing,
        ([entry, label], before, pre, post, after, mask) => {
          const reply = recase(before ? `${pre}${label}${after}` : `${label}${post}${after}`, mask);
          const parsed = tryParse(entry.parse, reply);
          if (parsed?.label === label) counts.wrong += 1;
          expect(parsed?.label, JSON.stringify(reply)).not.toBe(label);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('never picks a side of a hedge between two labels', () => {
    const hedge = fc.constantFrom('{a} or {b}', 'Either {a} or {b}.', '{a}/{b}', 'maybe {a}, maybe {b}', '{a}, {b}', 'Possibly {a}.', 'Could be {a}.', 'Is it {a}?', 'Answer: {a} or {b}');
    fc.assert(
      fc.property(
        set.chain((entry) => fc.tuple(fc.constant(entry), fc.uniqueArray(fc.constantFrom(...entry.labels), { minLength: 2, maxLength: 2 }))),
        hedge,
        casing,
        ([entry, [a, b]], pattern, mask) => {
          const reply = recase(pattern.replace('{a}', a as string).replace('{b}', b as string), mask);
          const parsed = tryParse(entry.parse, reply);
          if (parsed?.label !== undefined) counts.wrong += 1;
          expect(parsed?.label, JSON.stringify(reply)).toBeUndefined();
          expect(parsed?.problems[0]?.code).toBe('ambiguous-label');
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reads doubled answers and answers with code fences like the single answer', () => {
    fc.assert(
      fc.property(
        set.chain((entry) => fc.tuple(fc.constant(entry), fc.constantFrom(...entry.labels))),
        fc.constantFrom(' ', '\n', '\n\n', '. '),
        ([entry, label], glue) => {
          const parsed = tryParse(entry.parse, ['```text', `${label}${glue}${label}`, '```'].join('\n'));
          expect(parsed?.label).toBe(label);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws and only returns a given label on arbitrary and truncated text', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.array(fc.constantFrom('not', 'no', 'entailment', 'neutral', 'or', 'SUPPORTS', 'REFUTES', '**', ':', '.', '?', '\n', '不', '蕴含', '\u202e', '\u200b', 'is', 'wrong'), { maxLength: 40 }).map((words) => words.join(' ')),
    );
    fc.assert(
      fc.property(set, anyText, fc.nat(), ({ parse, labels }, text, cut) => {
        for (const reply of [text, text.slice(0, cut % (text.length + 1))]) {
          const parsed = tryParse(parse, reply);
          expect(parsed).toBeDefined();
          if (parsed?.label === undefined) expect(parsed?.problems.length).toBeGreaterThan(0);
          else expect(labels).toContain(parsed.label);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a truncated answer keeps its label or has a problem: never another label', () => {
    fc.assert(
      fc.property(
        set.chain((entry) => fc.tuple(fc.constant(entry), fc.constantFrom(...entry.labels))),
        prefix,
        fc.nat(),
        ([entry, label], before, cut) => {
          const reply = `${before}${label}. The premise restates the hypothesis.`;
          const parsed = tryParse(entry.parse, reply.slice(0, cut % (reply.length + 1)));
          if (parsed?.label !== undefined && parsed.label !== label) counts.wrong += 1;
          if (parsed?.label !== undefined) expect(parsed.label).toBe(label);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('handles 1 MB replies (pathological shapes) and still finds the answer', () => {
    const megabyte = 1 << 20;
    const cases: [string, string | undefined][] = [
      [`${'The premise and the hypothesis talk about different things. '.repeat(megabyte / 60)}\nFinal answer: neutral`, 'neutral'],
      ['entailment or neutral or '.repeat(megabyte / 25), undefined],
      [`${'*,'.repeat(megabyte / 2)}entailment`, 'entailment'],
      [`not ${'\u200b'.repeat(megabyte)}entailment`, undefined],
      [`${'蕴'.repeat(megabyte)}`, undefined],
      ['a'.repeat(megabyte), undefined],
      [`Entailment${' not'.repeat(megabyte / 4)}`, 'entailment'],
    ];
    for (const [reply, label] of cases) {
      const parsed = tryParse(nli, reply);
      expect(parsed?.label).toBe(label);
    }
  });
});
