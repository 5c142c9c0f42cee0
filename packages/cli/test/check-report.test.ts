import type { ClaimQueryProblemCode, DetectionResult } from '@factkit/claim-query';
import { EMPTY_USAGE, type GenerationProvenance } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/report/escape-html.js';
import { renderCheckReport } from '../src/report/check-report.js';

const PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "'><svg onload=alert(3)>", '</textarea><script src="http://evil.test/x.js"></script>', '<ScRiPt>alert(4)</sCrIpT>'];

/** A detection result with an attack payload in every string a model, the corpus or the user supplies. */
/** A provenance whose every string carries the payload. */
function provenanceOf(payload: string): GenerationProvenance {
  return { step: `step ${payload}`, modelId: `model ${payload}`, prompts: [`prompt ${payload}`], sampling: {}, usage: EMPTY_USAGE, cached: false, startedAt: payload, finishedAt: payload };
}

function poisoned(payload: string): DetectionResult {
  const answer = `First ${payload}. Second sentence.`;
  const firstEnd = answer.indexOf('.') + 1;
  return {
    id: `id ${payload}`,
    question: `question ${payload}`,
    answer,
    language: 'en',
    status: 'ok',
    responseLabel: 'hallucinated',
    mode: 'corpus',
    factualPrecision: 0.5,
    claimCounts: { supported: 1, hallucinated: 1, unverifiable: 1, failed: 0 },
    noClaims: false,
    generatorId: `gen ${payload}`,
    retrieverId: `ret ${payload}`,
    verifierId: `ver ${payload}`,
    generation: { raw: [`raw ${payload}`], provenance: [provenanceOf(payload)] },
    // Results are read back from JSON files, so a code may be anything: the report escapes it like any other string.
    problems: [{ code: `code ${payload}` as ClaimQueryProblemCode, message: `message ${payload}` }],
    sentences: [
      { index: 0, text: answer.slice(0, firstEnd), start: 0, end: firstEnd, label: 'hallucinated', claimIds: ['c0'] },
      { index: 1, text: answer.slice(firstEnd + 1), start: firstEnd + 1, end: answer.length, label: 'not-hallucinated', claimIds: ['c1'] },
    ],
    claims: [
      {
        claim: { id: 'c0', text: `claim ${payload}` },
        query: { text: `query ${payload}`, claimId: 'c0' },
        evidence: [{ documentId: `javascript:${payload}`, text: `snippet ${payload}`, score: 1.5, origin: { documentId: `javascript:${payload}`, title: `title ${payload}` } }],
        verdict: {
          status: 'ok',
          label: 'hallucinated',
          reasoning: `reasoning ${payload}`,
          raw: [`reply ${payload}`],
          verifier: `v ${payload}`,
          problems: [],
          provenance: provenanceOf(payload),
          votes: { hallucinated: 1 },
          why: `why ${payload}`,
          snippets: [{ rank: 1, text: `snippet ${payload}`, overlap: 0.5, relevant: true, decisive: true }],
        },
        sentenceIndex: 0,
        problems: [],
      },
      {
        claim: { id: 'c1', text: 'Second sentence.' },
        query: { text: 'second', claimId: 'c1' },
        evidence: [{ documentId: 'a', text: 'ok', score: 1, origin: { documentId: 'a', source: { name: 'example.org', url: 'https://example.org/a?b=1&c=2' } } }],
        verdict: { status: 'ok', label: 'correct', raw: [], verifier: 'v', problems: [] },
        sentenceIndex: 1,
        problems: [],
      },
      { claim: { id: 'c2', text: `unaligned ${payload}` }, evidence: [], verdict: { status: 'failed', raw: [], verifier: 'v', problems: [{ code: 'call-failed', message: payload }] }, problems: [] },
    ],
  };
}

describe('renderCheckReport', () => {
  it('escapes every supplied string: no payload survives as markup', () => {
    for (const payload of PAYLOADS) {
      const html = renderCheckReport([poisoned(payload), poisoned(payload)], { title: `t ${payload}`, corpus: payload, inputProblems: [{ line: 3, code: payload, message: payload }] });
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img|<svg/i);
      expect(html).not.toContain('href="javascript:');
      expect(html).toContain(escapeHtml(payload));
      // The only tags are the report's own.
      const tags = new Set([...html.matchAll(/<([a-z][a-z0-9]*)/gi)].map((m) => m[1]!.toLowerCase()));
      expect(
        [...tags].every((tag) =>
          [
            'html',
            'head',
            'meta',
            'title',
            'style',
            'body',
            'header',
            'h1',
            'h2',
            'h3',
            'p',
            'span',
            'table',
            'thead',
            'tbody',
            'tr',
            'th',
            'td',
            'a',
            'section',
            'ul',
            'ol',
            'li',
            'code',
            'dl',
            'dt',
            'dd',
            'div',
            'details',
            'summary',
            'pre',
            'strong',
            'em',
            'footer',
          ].includes(tag),
        ),
      ).toBe(true);
    }
  });

  it('links only http(s) sources, escaped; colours sentences by label; keeps the answer text intact', () => {
    const html = renderCheckReport([poisoned('x')]);
    expect(html).toContain('<a href="https://example.org/a?b=1&amp;c=2"');
    expect(html).toMatch(/<span class="sentence label-hallucinated" data-label="hallucinated" data-sentence="0"[^>]*>First x\.<\/span> <span class="sentence label-not-hallucinated"/);
    expect(html).toContain('data-response-label="hallucinated"');
    expect(html).toMatch(/<details class="evidence"><summary>Evidence \(1 snippet\)<\/summary>/);
    expect(html).toContain('Claims not aligned to a sentence');
    expect(html).not.toMatch(/<script|<link|src=/i);
  });

  it("shows each snippet's rank, NLI label and probability beside its text, marks the deciding one, prints the why line", () => {
    const result = poisoned('x');
    const judged: DetectionResult = {
      ...result,
      claims: [
        {
          ...result.claims[1]!,
          evidence: [
            { documentId: 'a', text: 'Canberra is the capital.', score: 2, origin: { documentId: 'a' } },
            { documentId: 'b', text: 'Sydney is a city.', score: 1, origin: { documentId: 'b' } },
          ],
          verdict: {
            status: 'ok',
            label: 'correct',
            raw: ['entailment', 'neutral'],
            verifier: 'v',
            problems: [],
            why: 'correct: decided by #1 entailment 0.91 (top-decisive; 1 entail, 0 contradict, 1 neutral of 2)',
            snippets: [
              { rank: 1, text: 'Canberra is the capital.', label: 'entailment', score: 0.912, overlap: 1, relevant: true, decisive: true },
              { rank: 2, text: 'Sydney is a city.', label: 'neutral', score: 0.6, overlap: 0.25, relevant: false, decisive: false },
            ],
          },
        },
      ],
    };
    const html = renderCheckReport([judged]);
    expect(html).toContain(
      '<li class="snippet decisive" value="1" data-rank="1" data-nli="entailment" data-decisive="true"><strong class="decisive-mark">deciding</strong> <span class="badge nli-entailment" data-nli="entailment">entails</span> 0.91 Canberra is the capital.<div class="source">rank 1 · source: a · score 2.000 · claim-word overlap 1.00</div></li>',
    );
    expect(html).toContain(
      '<li class="snippet" value="2" data-rank="2" data-nli="neutral"><span class="badge nli-neutral" data-nli="neutral">neutral</span> 0.60 Sydney is a city.<div class="source">rank 2 · source: b · score 1.000 · claim-word overlap 0.25 · names none of the claim’s entities</div></li>',
    );
    expect(html).toContain('<div class="reason why">why: correct: decided by #1 entailment 0.91 (top-decisive; 1 entail, 0 contradict, 1 neutral of 2)</div>');
    // The labels sit beside the snippets, so the separate raw list is not repeated.
    expect(html).not.toContain('Verifier output (2)');
  });

  it('property: escapeHtml output never contains markup characters and round-trips through entity decoding', () => {
    const decode = (text: string) =>
      text
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(decode(escaped)).toBe(text);
      }),
    );
  });
});
