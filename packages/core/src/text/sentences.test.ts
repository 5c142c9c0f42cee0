import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/factkit-error.js';
import { segmentSentences, splitSentences } from './sentences.js';

describe('splitSentences (English)', () => {
  it.each([
    ['Dr. Smith moved to the U.S. in 1990. He works at Acme Inc. now.', ['Dr. Smith moved to the U.S. in 1990.', 'He works at Acme Inc. now.']],
    ['Smith et al. reported a 3.5% rise. The effect held.', ['Smith et al. reported a 3.5% rise.', 'The effect held.']],
    ['John F. Kennedy was president. J. R. R. Tolkien wrote books.', ['John F. Kennedy was president.', 'J. R. R. Tolkien wrote books.']],
    ['Pi is 3.14159. E is 2.718!', ['Pi is 3.14159.', 'E is 2.718!']],
    ['Is it true? "Yes," she said. Really!', ['Is it true?', '"Yes," she said.', 'Really!']],
    ['Use e.g. aspirin, i.e. a drug. It works.', ['Use e.g. aspirin, i.e. a drug.', 'It works.']],
    ['He said "Stop." Then he left.', ['He said "Stop."', 'Then he left.']],
    ['Wait... What happened?', ['Wait...', 'What happened?']],
    // A word (not an abbreviation) and a period end a sentence before a lower-case word too; an abbreviation does not.
    ['values like 0.5 and 1.25 are fine. lowercase after period starts a sentence.', ['values like 0.5 and 1.25 are fine.', 'lowercase after period starts a sentence.']],
    ['Dosing was daily. ticagrelor reduced events.', ['Dosing was daily.', 'ticagrelor reduced events.']],
    ['We used approx. ten mice, e.g. a few, at max. dose, etc. and so on.', ['We used approx. ten mice, e.g. a few, at max. dose, etc. and so on.']],
    ['It reached the max. The end came.', ['It reached the max.', 'The end came.']],
    ['We saw it. Wait... then it left.', ['We saw it.', 'Wait... then it left.']],
    ['It is in the database (http://www.ebi.ac.uk/embl. html ) online.', ['It is in the database (http://www.ebi.ac.uk/embl. html ) online.']],
    ['First paragraph without period\n\nSecond paragraph.', ['First paragraph without period', 'Second paragraph.']],
    ['No terminator at the end', ['No terminator at the end']],
    ['', []],
    // Scientific abstracts: lower-case gene/protein names start sentences; mixed-case names and units end them or not.
    ['Levels of MDM2 rose. p53 was degraded. mTOR was active. iPSCs formed. miR-21 fell.', ['Levels of MDM2 rose.', 'p53 was degraded.', 'mTOR was active.', 'iPSCs formed.', 'miR-21 fell.']],
    ['The c-Abl kinase binds. c-Abl is here. beta-catenin rose.', ['The c-Abl kinase binds.', 'c-Abl is here.', 'beta-catenin rose.']],
    ['We measured mRNA. The result held.', ['We measured mRNA.', 'The result held.']],
    ['It phosphorylated p65/RelA. Elevated levels followed.', ['It phosphorylated p65/RelA. Elevated levels followed.']],
    ['It induced TNF-α. Treatment stopped it.', ['It induced TNF-α.', 'Treatment stopped it.']],
    ['The dose was 0.4 mg/d. High doses failed.', ['The dose was 0.4 mg/d.', 'High doses failed.']],
    ['Cells grew at 37 °C. The rest died.', ['Cells grew at 37 °C.', 'The rest died.']],
    ['The delay was 20 ms. Ms. Smith agreed.', ['The delay was 20 ms.', 'Ms. Smith agreed.']],
    ['Patients were seen in the ED. Two hundred left.', ['Patients were seen in the ED.', 'Two hundred left.']],
  ])('%j', (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it.each([
    // A copyright line is a sentence of its own.
    ['Cells died. © 2016 AACR.', ['Cells died.', '© 2016 AACR.']],
    // A quote mark standing alone after a sentence end closes that sentence.
    ['It was called the "stroma. " At day 4 it grew.', ['It was called the "stroma. "', 'At day 4 it grew.']],
    ['It is termed “necrosis. ” It results from injury.', ['It is termed “necrosis. ”', 'It results from injury.']],
    ['Data came from 40 teams. Results. —Among whites, risk rose. It fell — slowly. Then — nothing.', ['Data came from 40 teams.', 'Results.', '—Among whites, risk rose.', 'It fell — slowly.', 'Then — nothing.']],
    // A Markdown heading, a `quoted` start, and a decade or possessive before the period.
    ['Use is expanding. ### Diabetic retinopathy It grows.', ['Use is expanding.', '### Diabetic retinopathy It grows.']],
    ["It is mutant p53-281G. `Gain of function' is measured.", ['It is mutant p53-281G.', "`Gain of function' is measured."]],
    ["Rates fell since the 1980's. Selection helped.", ["Rates fell since the 1980's.", 'Selection helped.']],
    // A name whose last part after a period is one capital letter.
    ['It binds the histone variant H2A.Z. The structure is known.', ['It binds the histone variant H2A.Z. The structure is known.']],
    // A number inside an open bracket continues the sentence.
    ['Seventy-three (10. 4%) were treated. Fat fell (P<. 001) and rose (see no. 3).', ['Seventy-three (10. 4%) were treated.', 'Fat fell (P<. 001) and rose (see no. 3).']],
    ['It was 0.43 (-0.61 to 1. 47; random effects). Results held.', ['It was 0.43 (-0.61 to 1. 47; random effects).', 'Results held.']],
  ])('%j', (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it('honours extra abbreviations', () => {
    expect(splitSentences('See Tab. 3 for details.', { abbreviations: ['tab'] })).toEqual(['See Tab. 3 for details.']);
    expect(splitSentences('See Tab. 3 for details.')).toEqual(['See Tab.', '3 for details.']);
  });
});

describe("splitSentences({ profile: 'scifact' })", () => {
  it.each([
    // Splits after "+/-" followed by a space.
    ['The mean was 1.4 +/- 0.24 versus 1.15 +/- 0.09 in controls.', ['The mean was 1.4 +/-', '0.24 versus 1.15 +/-', '0.09 in controls.']],
    ['Twist1+/-mice and 39+/-11 years stay whole.', ['Twist1+/-mice and 39+/-11 years stay whole.']],
    // A period before a lower-case word ends a sentence unless an abbreviation or initial precedes it.
    ['They bite in An. gambiae s.l. and in S. pneumoniae, vs. non-smokers, e.g. mice.', ['They bite in An.', 'gambiae s.l.', 'and in S. pneumoniae, vs. non-smokers, e.g. mice.']],
    ['It was given s.c. twice. polmu rose.', ['It was given s.c.', 'twice.', 'polmu rose.']],
    // "(ref. 4)" and "p. Arg139Cys" are split; single letters, "nmol/L." and "H2A.Z." are not.
    ['It binds HLA-DQ2 (ref. 3). We tested it.', ['It binds HLA-DQ2 (ref.', '3).', 'We tested it.']],
    ['A SNP in NUDT15 (encoding p. Arg139Cys) was found, see p. 561.', ['A SNP in NUDT15 (encoding p.', 'Arg139Cys) was found, see p. 561.']],
    ['It rose to 8.3 [7. 1-10.5] (P<. 001) and (av. 441 mg/d) daily.', ['It rose to 8.3 [7. 1-10.5] (P<. 001) and (av.', '441 mg/d) daily.']],
    ['It up-regulates Bcl-2 and Bcl-x. Up-regulation follows.', ['It up-regulates Bcl-2 and Bcl-x.', 'Up-regulation follows.']],
    ['It activates cytochrome c. In cells it rose to 86 nmol/L. The variant H2A.Z. Here.', ['It activates cytochrome c. In cells it rose to 86 nmol/L. The variant H2A.Z. Here.']],
    ['Doses reached 0.4 mg/d. High doses at 37°C. Failed.', ['Doses reached 0.4 mg/d.', 'High doses at 37°C.', 'Failed.']],
    // A lone quote mark after a sentence is a sentence of its own.
    ['It was called "NETosis. " Here we review it.', ['It was called "NETosis.', '"', 'Here we review it.']],
    [
      'It is a new addition to the UseR! series. It was timed at 40 per sec. This held in Deinococcus spp. that survive.',
      ['It is a new addition to the UseR!', 'series.', 'It was timed at 40 per sec. This held in Deinococcus spp. that survive.'],
    ],
    ['It is called a “baby machine. ” Mother cells stay.', ['It is called a “baby machine.', '” Mother cells stay.']],
    ['Most were incident cases. …', ['Most were incident cases.', '…']],
    ['Epicatechin (IC50 approx. 15 M) and E. coli (ca. 4 Mbp) but approx. ten.', ['Epicatechin (IC50 approx.', '15 M) and E. coli (ca.', '4 Mbp) but approx. ten.']],
    // A listed abbreviation must stand alone: "c-Jun." and "A(H1N1)v." end sentences.
    ['Na activates c-Jun. Our results differ from A(H1N1)v. The CDC agreed.', ['Na activates c-Jun.', 'Our results differ from A(H1N1)v.', 'The CDC agreed.']],
    // "+/-" opening a bracketed comparison stays whole.
    ['It fell (0.65 +/- 0.16 vs. 1.78 +/- 0.43 cells).', ['It fell (0.65 +/- 0.16 vs. 1.78 +/-', '0.43 cells).']],
    ['It rose (11.1 +/- 4.0 [SD] vs 10.5 +/- 2.8 nmol/mL).', ['It rose (11.1 +/- 4.0 [SD] vs 10.5 +/-', '2.8 nmol/mL).']],
    // ... but not a comparison of percentages or of values with a unit, and never a genotype glued to its gene.
    ['It rose (55.9% +/- 4% vs 17.1% +/- 3%) here.', ['It rose (55.9% +/-', '4% vs 17.1% +/-', '3%) here.']],
    ['They were larger (9.15 +/- 0.11 microns vs. 8.98 +/- 0.11 microns).', ['They were larger (9.15 +/-', '0.11 microns vs. 8.98 +/-', '0.11 microns).']],
    ['It fell in ApcMin+/- mouse adenomas.', ['It fell in ApcMin+/- mouse adenomas.']],
    // Three spaces before an all-capital section heading keep the sentence going; a line break or four spaces do not.
    ['It ran in Seattle, Washington.   PARTICIPANTS Patients with diabetes.', ['It ran in Seattle, Washington.   PARTICIPANTS Patients with diabetes.']],
    ['It ran in Seattle, Washington.   \n PARTICIPANTS Patients came.    RESULTS We found it.   Here.', ['It ran in Seattle, Washington.', 'PARTICIPANTS Patients came.', 'RESULTS We found it.', 'Here.']],
    // Not at a dotted lower-case abbreviation before a number, an omission mark after a space, or a period after LaTeX.
    ['Rats got PDTC (100 mg/kg, i.p.) 24 and 1 h before. It was given s.c. Then it rose.', ['Rats got PDTC (100 mg/kg, i.p.) 24 and 1 h before.', 'It was given s.c.', 'Then it rose.']],
    ['The main argument for … RETURN TO TEXT', ['The main argument for … RETURN TO TEXT']],
    // A radical written with a leading period starts a sentence; a lower-case letter after "]" ends a name.
    ['NO generation declined. .O2- formation stopped.', ['NO generation declined.', '.O2- formation stopped.']],
    ['It fell to -4.8 microA with 96 mM [K+]e. Kir7.1 has a methionine.', ['It fell to -4.8 microA with 96 mM [K+]e.', 'Kir7.1 has a methionine.']],
    ['It finds \\emph{all relevant variables}. The algorithm wraps it.', ['It finds \\emph{all relevant variables}. The algorithm wraps it.']],
    // A URL ending in "/." does not end a sentence; an all-capital word is not the title it spells.
    ['See http://x.org/db/. The database is free. Trials were run by SR. They ended.', ['See http://x.org/db/. The database is free.', 'Trials were run by SR.', 'They ended.']],
  ])('%j', (text, expected) => {
    expect(splitSentences(text, { profile: 'scifact' })).toEqual(expected);
  });

  it('rejects an unknown profile with a typed error naming the option', () => {
    expect(() => splitSentences('A. B.', { profile: 'spacy' as never })).toThrowError(/options\.profile/);
  });
});

describe('splitSentences (Chinese and mixed)', () => {
  it.each([
    ['今天天气很好。我们去公园吧！你来吗？', ['今天天气很好。', '我们去公园吧！', '你来吗？']],
    ['他说：“我很好。”然后走了。', ['他说：“我很好。”', '然后走了。']],
    ['北京是中国的首都。Paris is the capital of France. 对吗？', ['北京是中国的首都。', 'Paris is the capital of France.', '对吗？']],
    ['圆周率约为3.14。这是常识。', ['圆周率约为3.14。', '这是常识。']],
  ])('%j', (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });
});

describe('segmentSentences properties', () => {
  const pieces = ['Dr.', 'Smith', 'U.S.', '3.14', 'ok.', 'Yes!', '是的。', 'e.g.', 'A.', '\n\n', 'word', '?', '"', '”', '+/-', '(', ')', '[', 'p.', 'An.', 'gambiae', 'p53', '©', '…', '...', 'http://x.org/', 'H2A.Z.', 'c.', 'ref.', '4'];
  for (const profile of ['default', 'scifact'] as const) {
    it(`${profile}: never throws on 1 MB of sentence-like text, and the sentences keep every non-space character`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 40 }), fc.array(fc.constantFrom(' ', '', '\n', '  '), { minLength: 1, maxLength: 5 }), (parts, gaps) => {
          const unit = parts.map((part, index) => part + (gaps[index % gaps.length] ?? ' ')).join('');
          const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
          const sentences = splitSentences(text, { profile });
          expect(sentences.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
        }),
        { numRuns: 5 },
      );
    }, 120_000);
  }

  it('spans point at their text, are ordered, and cover every non-space character', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), fc.constantFrom('default', 'scifact' as const), (parts, profile) => {
        const text = parts.join(' ');
        const spans = segmentSentences(text, { profile });
        let last = 0;
        for (const span of spans) {
          expect(text.slice(span.start, span.end)).toBe(span.text);
          expect(span.start).toBeGreaterThanOrEqual(last);
          expect(span.text).toBe(span.text.trim());
          expect(span.text.length).toBeGreaterThan(0);
          last = span.end;
        }
        const covered = spans
          .map((span) => span.text)
          .join('')
          .replace(/\s/g, '');
        expect(covered).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});

describe('segmentSentences argument guard (issue 21 §8)', () => {
  it('refuses a non-string text with a typed error naming "text", never a TypeError', () => {
    for (const text of [null, undefined, 42, { text: 'a' }]) {
      let error: unknown;
      try {
        segmentSentences(text as unknown as string);
      } catch (caught) {
        error = caught;
      }
      expect(InvalidArgumentError.isInstance(error), String(text)).toBe(true);
      expect((error as Error).message).toMatch(/^segmentSentences: argument "text" must be a string/);
    }
    expect(() => splitSentences(null as unknown as string)).toThrow(/argument "text" must be a string/);
    expect(segmentSentences('')).toEqual([]);
  });
});
