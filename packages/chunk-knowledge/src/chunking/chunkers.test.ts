import { InvalidArgumentError } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findTokenSpans } from '../internal/token-spans.js';
import { chunkDocuments, decodeUtf8Text } from './chunk-documents.js';
import { createSectionChunker } from './section-chunker.js';
import { createSentenceChunker } from './sentence-chunker.js';
import { createTokenChunker } from './token-chunker.js';
import type { Chunker } from './types.js';

const wordArb = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
const separatorArb = fc.constantFrom(' ', '  ', '\n', '. ', '! ', '? ', '.\n\n', ', ', '\t');
const textArb = fc.array(fc.tuple(wordArb, separatorArb), { minLength: 0, maxLength: 120 }).map((parts) => parts.map(([word, sep]) => word + sep).join(''));

/** Every non-space character of the text lies inside some chunk. */
function coversAllTokens(text: string, chunks: readonly { start: number; end: number }[]): boolean {
  return findTokenSpans(text).every((token) => chunks.some((chunk) => chunk.start <= token.start && token.end <= chunk.end));
}

function checkCommonInvariants(chunker: Chunker, text: string, maxTokens: number): void {
  const { chunks } = chunker.split({ id: 'doc', text });
  chunks.forEach((chunk, ordinal) => {
    expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
    expect(chunk.documentId).toBe('doc');
    expect(chunk.ordinal).toBe(ordinal);
    expect(chunk.id).toBe(`doc#${ordinal}`);
    expect(findTokenSpans(chunk.text).length).toBeLessThanOrEqual(maxTokens);
    expect(chunk.tokenCount).toBe(findTokenSpans(chunk.text).length);
    if (ordinal > 0) expect(chunk.start).toBeGreaterThan(chunks[ordinal - 1]!.start);
  });
  expect(coversAllTokens(text, chunks)).toBe(true);
  if (text.trim() === '') expect(chunks).toEqual([]);
}

describe('createTokenChunker', () => {
  it('cuts 10 words into windows of 4 with overlap 1 (hand-checked)', () => {
    const text = 'w0 w1 w2 w3 w4 w5 w6 w7 w8 w9';
    const { chunks } = createTokenChunker({ maxTokens: 4, overlapTokens: 1 }).split({ id: 'd', text });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['w0 w1 w2 w3', 'w3 w4 w5 w6', 'w6 w7 w8 w9']);
    expect(chunks.map((chunk) => [chunk.start, chunk.end])).toEqual([
      [0, 11],
      [9, 20],
      [18, 29],
    ]);
  });

  it('keeps spans exact, covers every token and shares exactly overlapTokens tokens between neighbours (property)', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 11 }), (text, maxTokens, overlapRaw) => {
        const overlapTokens = overlapRaw % maxTokens;
        const chunker = createTokenChunker({ maxTokens, overlapTokens });
        checkCommonInvariants(chunker, text, maxTokens);
        const { chunks } = chunker.split({ id: 'doc', text });
        const tokens = findTokenSpans(text);
        for (let i = 1; i < chunks.length; i += 1) {
          const previous = chunks[i - 1]!;
          const shared = tokens.filter((token) => token.start >= chunks[i]!.start && token.end <= previous.end).length;
          expect(shared).toBe(overlapTokens);
        }
        // All windows but the last are full.
        chunks.slice(0, -1).forEach((chunk) => expect(chunk.tokenCount).toBe(maxTokens));
      }),
    );
  });

  it('gives a document shorter than one chunk exactly one chunk, and an empty one none with a problem', () => {
    const short = createTokenChunker({ maxTokens: 50 }).split({ id: 's', text: '  Just a few words.  ' });
    expect(short.chunks).toHaveLength(1);
    expect(short.chunks[0]).toMatchObject({ text: 'Just a few words.', start: 2, end: 19 });
    const empty = createTokenChunker().split({ id: 'e', text: ' \n\t ' });
    expect(empty.chunks).toEqual([]);
    expect(empty.problems.map((problem) => problem.code)).toEqual(['empty-document']);
  });

  it('rejects bad options and bad documents with typed errors naming the argument', () => {
    expect(() => createTokenChunker({ maxTokens: 0 })).toThrow(/"maxTokens"/);
    expect(() => createTokenChunker({ maxTokens: 4, overlapTokens: 4 })).toThrow(/"overlapTokens" must be < maxTokens/);
    expect(() => createTokenChunker({ maxTokens: 2.5 })).toThrow(InvalidArgumentError);
    expect(() => createTokenChunker().split({ id: 'x', text: 42 } as never)).toThrow(/"document.text"/);
    expect(() => createTokenChunker().split(null as never)).toThrow(/"document"/);
  });

  it('replaces lone surrogates by U+FFFD with the same offsets and reports them', () => {
    const text = `alpha \uD800 beta \uDC00gamma \uD83D\uDE00 delta`;
    const { chunks, problems } = createTokenChunker({ maxTokens: 3, overlapTokens: 0 }).split({ id: 'u', text });
    expect(problems.map((problem) => problem.code)).toEqual(['invalid-text']);
    expect(problems[0]!.message).toMatch(/2 lone/);
    expect(chunks.map((chunk) => chunk.text).join(' ')).toBe('alpha \uFFFD beta \uFFFDgamma \uD83D\uDE00 delta');
    for (const chunk of chunks) expect(chunk.text.length).toBe(chunk.end - chunk.start);
  });

  it('counts each Han character as a token', () => {
    const { chunks } = createTokenChunker({ maxTokens: 3, overlapTokens: 0 }).split({ id: 'zh', text: '阿司匹林降低发烧。' });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['阿司匹', '林降低', '发烧。']);
  });
});

describe('createSentenceChunker', () => {
  it('packs whole sentences and never cuts one that fits (hand-checked)', () => {
    const text = 'One two three. Four five. Six seven eight nine. Ten.';
    const { chunks } = createSentenceChunker({ maxTokens: 5 }).split({ id: 'd', text });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['One two three. Four five.', 'Six seven eight nine. Ten.']);
  });

  it('splits one very long sentence into windows, reports it, and drops nothing', () => {
    const long = Array.from({ length: 25 }, (_, i) => `w${i}`).join(' ');
    const text = `Short one. ${long}. Tail here.`;
    const { chunks, problems } = createSentenceChunker({ maxTokens: 10 }).split({ id: 'd', text });
    expect(problems.map((problem) => problem.code)).toEqual(['long-sentence-split']);
    expect(coversAllTokens(text, chunks)).toBe(true);
    expect(Math.max(...chunks.map((chunk) => Number(chunk.tokenCount)))).toBeLessThanOrEqual(10);
  });

  it('repeats the last sentence in the next chunk with overlapSentences: 1', () => {
    const text = 'A b. C d. E f. G h.';
    const { chunks } = createSentenceChunker({ maxTokens: 4, overlapSentences: 1 }).split({ id: 'd', text });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['A b. C d.', 'C d. E f.', 'E f. G h.']);
  });

  it('keeps spans exact, sizes bounded and every token covered (property)', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 15 }), fc.integer({ min: 0, max: 2 }), (text, maxTokens, overlapSentences) => {
        checkCommonInvariants(createSentenceChunker({ maxTokens, overlapSentences }), text, maxTokens);
      }),
    );
  });
});

describe('createSectionChunker', () => {
  it('never crosses a heading or a page break and records section and page', () => {
    const text = '# Intro\nAspirin lowers fever. It is cheap.\n# Methods\nWe ran a trial.\fPage two text here.';
    const { chunks } = createSectionChunker({ maxTokens: 50 }).split({ id: 'p', text });
    expect(chunks.map((chunk) => [chunk.text, chunk.section, chunk.page])).toEqual([
      ['# Intro\nAspirin lowers fever. It is cheap.', 'Intro', 1],
      ['# Methods\nWe ran a trial.', 'Methods', 1],
      ['Page two text here.', 'Methods', 2],
    ]);
  });

  it('keeps spans exact, sizes bounded and every token covered (property)', () => {
    const sectionText = fc.array(fc.oneof(textArb, fc.constant('\n# Heading A\n'), fc.constant('\f')), { maxLength: 6 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(sectionText, fc.integer({ min: 1, max: 15 }), (text, maxTokens) => {
        checkCommonInvariants(createSectionChunker({ maxTokens }), text, maxTokens);
      }),
    );
  });

  it('rejects a global heading pattern', () => {
    expect(() => createSectionChunker({ headingPattern: /^#/g })).toThrow(/"headingPattern"/);
  });
});

describe('chunkDocuments', () => {
  it('reports duplicate chunks, bad documents and repeated ids, and keeps going', () => {
    const documents = [{ id: 'a', text: 'Aspirin lowers fever.' }, { id: 'b', text: 'Aspirin   lowers fever.' }, { id: 'c', text: '' }, { id: 'a', text: 'Another text.' }, { id: 'd', text: 7 } as never, { id: 'e', text: 'Fine text.' }];
    const kept = chunkDocuments(documents, { chunker: createSentenceChunker() });
    expect(kept.chunks.map((chunk) => chunk.id)).toEqual(['a#0', 'b#0', 'e#0']);
    expect(kept.problems.map((problem) => [problem.index, problem.code])).toEqual([
      [1, 'duplicate-chunk'],
      [2, 'empty-document'],
      [3, 'duplicate-document-id'],
      [4, 'invalid-document'],
    ]);
    const dropped = chunkDocuments(documents, { chunker: createSentenceChunker(), duplicates: 'drop' });
    expect(dropped.chunks.map((chunk) => chunk.id)).toEqual(['a#0', 'e#0']);
    expect(dropped.problems.find((problem) => problem.code === 'duplicate-chunk')?.message).toMatch(/same text as "a#0"; dropped/);
  });

  it('decodes invalid UTF-8 with a problem instead of silently', () => {
    expect(decodeUtf8Text(new TextEncoder().encode('héllo'))).toEqual({ text: 'héllo', problems: [] });
    const bad = decodeUtf8Text(new Uint8Array([0x61, 0xff, 0x62]), { id: 'x' });
    expect(bad.text).toBe('a\uFFFDb');
    expect(bad.problems).toMatchObject([{ id: 'x', code: 'invalid-utf8' }]);
  });
});
