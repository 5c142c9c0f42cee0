import { assertNonEmptyString, assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import type { Chunk, Document, ItemProblem } from '@factkit/core';
import type { TextChunk } from '../chunking/types.js';
import { replaceLoneSurrogates } from './token-spans.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

/** Checks the document shape and returns its text with lone surrogates replaced, plus problems (invalid text, empty). */
export function prepareDocument(document: Document, where: string): { text: string; problems: ItemProblem<ChunkKnowledgeProblemCode>[]; empty: boolean } {
  if (typeof document !== 'object' || document === null) {
    throw new InvalidArgumentError({ where, argument: 'document', message: `must be an object with string "id" and "text" (got ${document === null ? 'null' : typeof document})` });
  }
  assertNonEmptyString('document.id', document.id, where);
  if (typeof document.text !== 'string') {
    throw new InvalidArgumentError({ where, argument: 'document.text', message: `must be a string (got ${typeof document.text}) for document "${document.id}"` });
  }
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
  const cleaned = replaceLoneSurrogates(document.text);
  if (cleaned.replaced > 0) {
    problems.push({
      id: document.id,
      code: 'invalid-text',
      message: `${cleaned.replaced} lone UTF-16 surrogate(s) (invalid UTF-8 once encoded), first at offset ${cleaned.firstIndex}, replaced by U+FFFD; offsets are unchanged`,
    });
  }
  const empty = cleaned.text.trim().length === 0;
  if (empty) problems.push({ id: document.id, code: 'empty-document', message: `document "${document.id}" has no text; no chunks` });
  return { text: cleaned.text, problems, empty };
}

/** Chunk `ordinal` of `document` over `text.slice(start, end)`, id `documentId#ordinal`, with the document's own metadata passed on. */
export function makeChunk(document: Pick<Document, 'id' | 'metadata'>, text: string, span: { readonly start: number; readonly end: number; readonly ordinal: number }, fields: Omit<TextChunk, keyof Chunk>): TextChunk {
  const { start, end, ordinal } = span;
  return {
    id: `${document.id}#${ordinal}`,
    documentId: document.id,
    text: text.slice(start, end),
    ordinal,
    start,
    end,
    ...fields,
    ...(document.metadata === undefined ? {} : { metadata: document.metadata }),
  };
}

export function checkPositiveInteger(value: number, argument: string, where: string): void {
  assertPositiveInteger(argument, value, where);
}

export function checkNonNegativeInteger(value: number, argument: string, where: string): void {
  assertNonNegativeInteger(argument, value, where);
}
