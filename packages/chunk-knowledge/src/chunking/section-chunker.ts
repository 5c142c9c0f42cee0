import { assertNonEmptyString, InvalidArgumentError } from '@factkit/core';
import type { Document } from '@factkit/core';
import { checkNonNegativeInteger, checkPositiveInteger, makeChunk, prepareDocument } from '../internal/prepare-document.js';
import { packSentences } from '../internal/pack-sentences.js';
import type { Chunker, ChunkingResult, TextChunk } from './types.js';

export interface SectionChunkerOptions {
  /** Most tokens per chunk inside a section (sentence-packed, see `createSentenceChunker`). @default 200 */
  readonly maxTokens?: number;
  /** @default 0 */
  readonly overlapSentences?: number;
  /** A line matching this starts a new section (its text becomes `chunk.section`). Must not be global. @default Markdown headings `/^#{1,6}\s+(.+)$/` */
  readonly headingPattern?: RegExp;
  /** Separates pages; page numbers (1-based) go to `chunk.page`. @default '\f' (form feed, as pdftotext writes) */
  readonly pageSeparator?: string;
}

const WHERE = 'createSectionChunker';

/**
 * Section- and page-aware chunker: chunks never cross a heading line or a page break; inside a section whole
 * sentences are packed up to `maxTokens`. Each chunk records its `section` heading and `page`.
 * @throws InvalidArgumentError for bad sizes, a global headingPattern or an empty pageSeparator.
 */
export function createSectionChunker(options: SectionChunkerOptions = {}): Chunker {
  const { maxTokens = 200, overlapSentences = 0, headingPattern = /^#{1,6}\s+(.+)$/, pageSeparator = '\f' } = options;
  checkPositiveInteger(maxTokens, 'maxTokens', WHERE);
  checkNonNegativeInteger(overlapSentences, 'overlapSentences', WHERE);
  if (!(headingPattern instanceof RegExp) || headingPattern.global || headingPattern.sticky) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'headingPattern', message: 'must be a RegExp without the g or y flag' });
  }
  assertNonEmptyString('pageSeparator', pageSeparator, WHERE);
  const id = `sections(${maxTokens},${overlapSentences})`;
  return {
    id,
    split(document: Document): ChunkingResult {
      const { text, problems, empty } = prepareDocument(document, `${WHERE}.split`);
      if (empty) return { chunks: [], problems };
      const chunks: TextChunk[] = [];
      let page = 1;
      let section: string | undefined;
      let pageStart = 0;
      while (pageStart <= text.length) {
        const separatorAt = text.indexOf(pageSeparator, pageStart);
        const pageEnd = separatorAt < 0 ? text.length : separatorAt;
        // Sections inside the page: a heading line starts a new one.
        let sectionStart = pageStart;
        let lineStart = pageStart;
        const flush = (end: number): void => {
          const packed = packSentences(text, sectionStart, end, { maxTokens, overlapSentences, documentId: document.id });
          problems.push(...packed.problems);
          for (const window of packed.windows) {
            chunks.push(makeChunk(document, text, { start: window.start, end: window.end, ordinal: chunks.length }, { tokenCount: window.tokenCount, chunker: id, page, ...(section === undefined ? {} : { section }) }));
          }
        };
        while (lineStart < pageEnd) {
          const newline = text.indexOf('\n', lineStart);
          const lineEnd = newline < 0 || newline > pageEnd ? pageEnd : newline;
          const heading = headingPattern.exec(text.slice(lineStart, lineEnd).trim());
          if (heading) {
            flush(lineStart);
            section = (heading[1] ?? heading[0]).trim();
            sectionStart = lineStart;
          }
          lineStart = lineEnd + 1;
        }
        flush(pageEnd);
        if (separatorAt < 0) break;
        pageStart = separatorAt + pageSeparator.length;
        page += 1;
      }
      return { chunks, problems };
    },
  };
}
