import { InvalidArgumentError } from '@factkit/core';
import type { AnnotatedChunk } from '../knowledge/types.js';

/** A part of a passage: the generated title, the candidate questions, or the chunk text. */
export type LayoutField = 'title' | 'questions' | 'chunk';

/** One of the paper's passage layouts (Table 7): which fields, in which order, each closed by `</s>`. */
export interface PassageLayout {
  /** e.g. `'case-6'`. */
  readonly name: string;
  readonly fields: readonly LayoutField[];
  /** The template as printed in the paper, e.g. `passage: <s> candidate questions </s> document chunk </s>`. */
  readonly template: string;
}

function layout(name: string, fields: readonly LayoutField[]): PassageLayout {
  const label: Record<LayoutField, string> = { title: 'title', questions: 'candidate questions', chunk: 'document chunk' };
  return Object.freeze({ name, fields: Object.freeze([...fields]), template: `passage: <s> ${fields.map((field) => label[field]).join(' </s> ')} </s>` });
}

/** Case 1: `passage: <s> document chunk </s>` (chunk only: the baseline of Table 7). */
export const CASE_1_CHUNK = layout('case-1', ['chunk']);
/** Case 2: `passage: <s> title </s>`. */
export const CASE_2_TITLE = layout('case-2', ['title']);
/** Case 3: `passage: <s> candidate questions </s>`. */
export const CASE_3_QUESTIONS = layout('case-3', ['questions']);
/** Case 4: `passage: <s> title </s> candidate questions </s> document chunk </s>`. */
export const CASE_4_TITLE_QUESTIONS_CHUNK = layout('case-4', ['title', 'questions', 'chunk']);
/** Case 5: `passage: <s> candidate questions </s> title </s> document chunk </s>`. */
export const CASE_5_QUESTIONS_TITLE_CHUNK = layout('case-5', ['questions', 'title', 'chunk']);
/** Case 6: `passage: <s> candidate questions </s> document chunk </s>` (best in the paper's Table 7). */
export const CASE_6_QUESTIONS_CHUNK = layout('case-6', ['questions', 'chunk']);
/** Case 7: `passage: <s> title </s> document chunk </s>`. */
export const CASE_7_TITLE_CHUNK = layout('case-7', ['title', 'chunk']);

/** The seven layouts of Table 7 in order. */
export const PASSAGE_LAYOUTS: readonly PassageLayout[] = Object.freeze([CASE_1_CHUNK, CASE_2_TITLE, CASE_3_QUESTIONS, CASE_4_TITLE_QUESTIONS_CHUNK, CASE_5_QUESTIONS_TITLE_CHUNK, CASE_6_QUESTIONS_CHUNK, CASE_7_TITLE_CHUNK]);

export interface RenderPassageOptions {
  /** Opens the passage (E5's `<s>`); `''` for none. @default '<s>' */
  readonly open?: string;
  /** Closes every field (E5's `</s>`); `''` for none. @default '</s>' */
  readonly close?: string;
  /** Joins the candidate questions inside their field. @default ' ' */
  readonly questionSeparator?: string;
}

/**
 * Renders a passage in a layout: `<s> f1 </s> f2 </s> ... </s>` with the fields of the layout. The same string is
 * indexed and displayed. The `passage:` prefix is NOT written here: it belongs to the embedder and is chosen by
 * the request's `kind` (see `withKindPrefixes`).
 * @throws InvalidArgumentError when the layout has no fields or an unknown field.
 */
export function renderPassage(item: AnnotatedChunk, passageLayout: PassageLayout, options: RenderPassageOptions = {}): string {
  const { open = '<s>', close = '</s>', questionSeparator = ' ' } = options;
  if (!Array.isArray(passageLayout?.fields) || passageLayout.fields.length === 0) {
    throw new InvalidArgumentError({ where: 'renderPassage', argument: 'layout', message: 'must have at least one field (title, questions, chunk)' });
  }
  const parts = passageLayout.fields.map((field) => renderField(item, field, questionSeparator));
  const body = close === '' ? parts.join(' ') : parts.map((part) => `${part} ${close}`).join(' ');
  return open === '' ? body : `${open} ${body}`;
}

/** Text of one field of an annotated chunk. */
export function renderField(item: AnnotatedChunk, field: LayoutField, questionSeparator = ' '): string {
  switch (field) {
    case 'title':
      return item.title;
    case 'questions':
      return item.questions.join(questionSeparator);
    case 'chunk':
      return item.chunk.text;
    default:
      throw new InvalidArgumentError({ where: 'renderPassage', argument: 'layout.fields', message: `has unknown field "${String(field)}" (known: title, questions, chunk)` });
  }
}

/** Finds a layout by name (`'case-1'` ... `'case-7'`). @throws InvalidArgumentError for an unknown name. */
export function getPassageLayout(name: string): PassageLayout {
  const found = PASSAGE_LAYOUTS.find((candidate) => candidate.name === name);
  if (!found) throw new InvalidArgumentError({ where: 'getPassageLayout', argument: 'name', message: `must be one of ${PASSAGE_LAYOUTS.map((l) => l.name).join(', ')} (got ${JSON.stringify(name)})` });
  return found;
}
