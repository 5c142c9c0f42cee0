import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseKeywords } from './parse-keywords.js';

describe('parseKeywords', () => {
  it('reads the #keywords: line of the paper format', () => {
    const parsed = parseKeywords('#keywords: Scottish Parliament, MSP, Aberdeenshire West, Liberal Democrat, Mike Rumbles.');
    expect(parsed.keywords).toEqual(['Scottish Parliament', 'MSP', 'Aberdeenshire West', 'Liberal Democrat', 'Mike Rumbles']);
    expect(parsed.problems).toEqual([]);
  });

  it('tolerates markdown, a preamble, numbered lists, quotes, duplicates and an echoed note', () => {
    const reply = 'Sure! Here they are:\n**Keywords:** "COVID-19", Kerala, confirmed cases\n1. surveillance\n2) Kerala\n- state government\n[note: Extract 5 to 10 keywords only.]';
    expect(parseKeywords(reply).keywords).toEqual(['COVID-19', 'Kerala', 'confirmed cases', 'surveillance', 'state government']);
  });

  it('reports a missing section, an empty reply and a count outside 5-10', () => {
    expect(parseKeywords('alpha, beta, gamma, delta, epsilon').problems.map((problem) => problem.code)).toEqual(['missing-section']);
    expect(parseKeywords('   ').problems.map((problem) => problem.code)).toEqual(['empty-reply']);
    expect(parseKeywords('#keywords: a1, b2').problems.map((problem) => problem.code)).toEqual(['keyword-count']);
    expect(parseKeywords('#keywords:   ').problems.map((problem) => problem.code)).toEqual(['no-keywords']);
    expect(parseKeywords('#keywords: your keywords here.').keywords).toEqual([]);
  });

  it('never throws, returns trimmed non-empty keywords, and stays fast on long adversarial input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const parsed = parseKeywords(text);
        for (const keyword of parsed.keywords) {
          expect(keyword.length).toBeGreaterThan(0);
          expect(keyword).toBe(keyword.trim());
        }
      }),
    );
    const started = performance.now();
    parseKeywords(`#keywords:${' '.repeat(200_000)}*${'keywords '.repeat(20_000)}`);
    parseKeywords(`${'#'.repeat(100_000)}${' '.repeat(100_000)}`);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
