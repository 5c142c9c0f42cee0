import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClaimQueryReply } from './parse-claim-query-reply.js';

const codes = (parse: { problems: readonly { code: string }[] }): string[] => parse.problems.map((p) => p.code);

describe('parseClaimQueryReply', () => {
  it("reads the authors' response format (numbers followed by a space) one to one", () => {
    const parse = parseClaimQueryReply(
      '[Claims]\n1 The Acqua Felice aqueduct was completed in 1586.\n2 The construction of the Acqua Felice aqueduct took 27 years.\n[Queries]\n1 When was the Acqua Felice aqueduct completed?\n2 How long did it take to construct the Acqua Felice aqueduct?\n[End]',
    );
    expect(parse.pairs.map((p) => [p.claim.text, p.query?.text])).toEqual([
      ['The Acqua Felice aqueduct was completed in 1586.', 'When was the Acqua Felice aqueduct completed?'],
      ['The construction of the Acqua Felice aqueduct took 27 years.', 'How long did it take to construct the Acqua Felice aqueduct?'],
    ]);
    expect(parse.problems).toEqual([]);
    expect(parse.markerLanguage).toBe('en');
  });

  it('reads the Chinese markers and numbering styles', () => {
    const parse = parseClaimQueryReply('[陈述]\n1、北京是中国的首都。\n2、长城位于中国北方。\n[查询]\n1、中国的首都是哪里？\n2、长城位于哪里？\n[结束]');
    expect(parse.pairs.map((p) => p.query?.text)).toEqual(['中国的首都是哪里？', '长城位于哪里？']);
    expect(parse.pairs[0]?.claim.text).toBe('北京是中国的首都。');
    expect(parse.markerLanguage).toBe('zh');
    expect(parse.problems).toEqual([]);
  });

  it('handles "No claims." and 无陈述 with their "No query" / 无查询', () => {
    const en = parseClaimQueryReply('[Claims]\nNo claims.\n[Queries]\nNo query\n[End]');
    expect(en.noClaims).toBe(true);
    expect(en.pairs).toEqual([]);
    expect(en.problems).toEqual([]);
    const zh = parseClaimQueryReply('[陈述]\n无陈述\n[查询]\n无查询\n[结束]');
    expect(zh.noClaims).toBe(true);
    expect(zh.problems).toEqual([]);
  });

  it('marks "No query" for one claim without inventing a query', () => {
    const parse = parseClaimQueryReply('[Claims]\n1. Water boils at 100 C at sea level.\n2. I love tea.\n[Queries]\n1. boiling point of water at sea level\n2. No query\n[End]');
    expect(parse.pairs[1]).toMatchObject({ claim: { id: '0:c1', text: 'I love tea.' }, noQuery: true });
    expect(parse.pairs[1]?.query).toBeUndefined();
    expect(parse.problems).toEqual([]);
  });

  it('reports a count mismatch and keeps the unpaired claim and the orphan query', () => {
    const fewer = parseClaimQueryReply('[Claims]\n1. A is B.\n2. C is D.\n3. E is F.\n[Queries]\n1. what is A\n2. what is C\n[End]');
    expect(fewer.pairs).toHaveLength(3);
    expect(fewer.pairs[2]?.problems.map((p) => p.code)).toEqual(['missing-query']);
    expect(codes(fewer)).toContain('count-mismatch');
    const more = parseClaimQueryReply('[Claims]\n- A is B.\n[Queries]\n- what is A\n- what is Z\n[End]');
    expect(more.pairs).toHaveLength(1);
    expect(more.orphanQueries).toEqual(['what is Z']);
    expect(codes(more)).toEqual(expect.arrayContaining(['count-mismatch', 'orphan-query']));
  });

  it('pairs by explicit numbers when a number is skipped', () => {
    const parse = parseClaimQueryReply('[Claims]\n1. A.\n2. B.\n3. C.\n[Queries]\n1. qa\n3. qc\n[End]');
    expect(parse.pairs.map((p) => p.query?.text)).toEqual(['qa', undefined, 'qc']);
  });

  it('strips bullets, bold numbering, quotes and think blocks; reports prose around the lists', () => {
    const parse = parseClaimQueryReply(
      '<think>let me see</think>Sure! Here is the output.\n**[Claims]**\nHere are the claims:\n**1.** "Paris is the capital of France."\n**2.** Paris has 2 million inhabitants.\n**[Queries]**\n* capital of France\n* population of Paris\n[End]\nHope this helps!',
    );
    expect(parse.pairs.map((p) => [p.claim.text, p.query?.text])).toEqual([
      ['Paris is the capital of France.', 'capital of France'],
      ['Paris has 2 million inhabitants.', 'population of Paris'],
    ]);
    expect(codes(parse).filter((c) => c === 'extra-text')).toHaveLength(3);
  });

  it('parses as far as possible when [End] is missing (truncated reply)', () => {
    const parse = parseClaimQueryReply('[Claims]\n1. A is B.\n2. C is D.\n[Queries]\n1. what is A');
    expect(parse.pairs.map((p) => p.query?.text)).toEqual(['what is A', undefined]);
    expect(codes(parse)).toEqual(expect.arrayContaining(['missing-end', 'count-mismatch']));
  });

  it('reads claims when the [Queries] section is missing', () => {
    const parse = parseClaimQueryReply('[Claims]\nA is B.\nC is D.');
    expect(parse.pairs.map((p) => p.claim.text)).toEqual(['A is B.', 'C is D.']);
    expect(codes(parse)).toContain('missing-section');
  });

  it('reads interleaved "Claim: / Query:" lines without markers', () => {
    const parse = parseClaimQueryReply('Claim 1: Tokyo is in Japan.\nQuery 1: Where is Tokyo?\nClaim 2: Osaka is in Japan.\n查询2：大阪在哪里？');
    expect(parse.pairs.map((p) => [p.claim.text, p.query?.text])).toEqual([
      ['Tokyo is in Japan.', 'Where is Tokyo?'],
      ['Osaka is in Japan.', '大阪在哪里？'],
    ]);
    expect(codes(parse)).toContain('missing-section');
  });

  it('accepts mixed-language markers and says so', () => {
    const parse = parseClaimQueryReply('[陈述]\n1 北京是中国的首都。\n[Queries]\n1 capital of China\n[End]');
    expect(parse.pairs[0]?.query?.text).toBe('capital of China');
    expect(parse.markerLanguage).toBe('mixed');
    expect(codes(parse)).toContain('mixed-language');
  });

  it('stops at a repeated block and reports it', () => {
    const parse = parseClaimQueryReply('[Claims]\n1 A.\n[Queries]\n1 qa\n[Claims]\n1 A.\n[Queries]\n1 qa\n[End]');
    expect(parse.pairs).toHaveLength(1);
    expect(codes(parse)).toContain('repeated-block');
  });

  it('keeps claims beside a contradictory "No claims."', () => {
    const parse = parseClaimQueryReply('[Claims]\nNo claims.\nA is B.\n[Queries]\nwhat is A\n[End]');
    expect(parse.noClaims).toBe(false);
    expect(parse.pairs.map((p) => p.claim.text)).toEqual(['A is B.']);
    expect(codes(parse)).toContain('contradictory-no-claims');
  });

  it('reports empty replies instead of throwing', () => {
    expect(codes(parseClaimQueryReply(''))).toEqual(['empty-reply']);
    expect(codes(parseClaimQueryReply('   \n '))).toEqual(['empty-reply']);
    expect(codes(parseClaimQueryReply(undefined as unknown as string))).toEqual(['empty-reply']);
  });

  describe('properties (seeded, see tooling/vitest.setup.ts)', () => {
    const itemText = fc.stringMatching(/^[A-Za-z\u4e00-\u9fa5][A-Za-z\u4e00-\u9fa5 ,]{0,30}[.?。？]$/).filter((text) => !/^(no|none|无)/i.test(text) && !/^(claims?|quer(y|ies)|end|陈述|查询|结束)\b/i.test(text));

    it('round-trips any well-formed reply in either language and any list style', () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(itemText, itemText), { minLength: 1, maxLength: 8 }), fc.constantFrom('en', 'zh'), fc.constantFrom('authors', 'dot', 'paren', 'bullet', 'plain'), (pairs, language, style) => {
          const prefix = (i: number): string => (style === 'authors' ? `${i + 1} ` : style === 'dot' ? `${i + 1}. ` : style === 'paren' ? `(${i + 1}) ` : style === 'bullet' ? '- ' : '');
          const m = language === 'en' ? ['[Claims]', '[Queries]', '[End]'] : ['[陈述]', '[查询]', '[结束]'];
          const reply = [m[0], ...pairs.map(([c], i) => prefix(i) + c), m[1], ...pairs.map(([, q], i) => prefix(i) + q), m[2]].join('\n');
          const parse = parseClaimQueryReply(reply);
          expect(parse.pairs.map((p) => [p.claim.text, p.query?.text])).toEqual(pairs.map(([c, q]) => [c.trim(), q.trim()]));
          expect(parse.problems).toEqual([]);
        }),
      );
    });

    it('never throws, and never loses a claim line silently, on arbitrary text', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 400 }), fc.array(fc.constantFrom('[Claims]', '[Queries]', '[End]', '[陈述]', '[查询]', '1. ', '- ', '\n', 'No query', '无陈述', '**'), { maxLength: 12 }), (noise, tokens) => {
          const reply = tokens.join('') + noise + tokens.reverse().join('\n');
          const parse = parseClaimQueryReply(reply);
          expect(Array.isArray(parse.pairs)).toBe(true);
          for (const pair of parse.pairs) {
            expect(pair.claim.text.length).toBeGreaterThan(0);
            expect(pair.noQuery && pair.query !== undefined).toBe(false);
          }
          // Something non-empty always yields pairs, "no claims", or a problem saying why not.
          if (reply.trim().length > 0) expect(parse.pairs.length > 0 || parse.noClaims || parse.problems.length > 0).toBe(true);
        }),
      );
    });

    it('is linear: a 200k-character reply parses without blow-up', () => {
      const lines = Array.from({ length: 5000 }, (_, i) => `${i + 1}. claim number ${i} about something.`);
      const parse = parseClaimQueryReply(`[Claims]\n${lines.join('\n')}\n[Queries]\n${lines.join('\n')}\n[End]`);
      expect(parse.pairs).toHaveLength(5000);
      const pathological = parseClaimQueryReply(`[${'['.repeat(50_000)}${'1. '.repeat(20_000)}**`.repeat(2));
      expect(Array.isArray(pathological.problems)).toBe(true);
    });
  });
});
