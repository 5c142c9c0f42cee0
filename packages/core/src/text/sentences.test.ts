import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
    ['values like 0.5 and 1.25 are fine. lowercase after period stays.', ['values like 0.5 and 1.25 are fine. lowercase after period stays.']],
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

  it('honours extra abbreviations', () => {
    expect(splitSentences('See Tab. 3 for details.', { abbreviations: ['tab'] })).toEqual(['See Tab. 3 for details.']);
    expect(splitSentences('See Tab. 3 for details.')).toEqual(['See Tab.', '3 for details.']);
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
  it('spans point at their text, are ordered, and cover every non-space character', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('Dr.', 'Smith', 'U.S.', '3.14', 'ok.', 'Yes!', '是的。', 'e.g.', 'A.', '\n\n', 'word', '?', '"'), { maxLength: 30 }), (parts) => {
        const text = parts.join(' ');
        const spans = segmentSentences(text);
        let last = 0;
        for (const span of spans) {
          expect(text.slice(span.start, span.end)).toBe(span.text);
          expect(span.start).toBeGreaterThanOrEqual(last);
          expect(span.text).toBe(span.text.trim());
          expect(span.text.length).toBeGreaterThan(0);
          last = span.end;
        }
        const covered = spans.map((span) => span.text).join('').replace(/\s/g, '');
        expect(covered).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});
