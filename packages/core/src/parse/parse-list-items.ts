import type { ItemProblem } from '../query.js';
import { dropReasoning, stripCodeFences, stripInvisible } from './reply-text.js';

/** What {@link parseListItems} read: the items in order and what was wrong. */
export interface ParsedListItems {
  readonly items: string[];
  /** `empty-reply` when no item was found. */
  readonly problems: ItemProblem<ListItemsProblemCode>[];
}

/** The one problem code {@link parseListItems} reports: `empty-reply` (not text, or no list item found). */
export type ListItemsProblemCode = 'empty-reply';

// A list marker at the start of a line: **1.**, (1), 1 -, 1), 1., 1:, #1, Q1:, Query 1 -, bullets - * • · – —, a), ii.
const MARKER =
  /^(?:\*\*|__)?(?:\(\s*\d{1,3}\s*\)|\[\s*\d{1,3}\s*\]|#\s?\d{1,3}[.):]?|\d{1,3}\s*[.)\]:：、]|\d{1,3}\s+[-–—]|(?:q(?:uery)?|question|version|sub-?query|rewrite)\s*\d{0,3}\s*[:.)\-–—]|[a-h][.)]|(?:i{1,3}|iv|v|vi{1,3}|ix|x)[.)]|[-*•·–—+▪►✓✔])(?:\*\*|__)?(?=\s|$|"|[^\x00-\x7F])\s*/iu;
// Lines that talk about the list instead of being an item.
const REMARK =
  /^(?:here\s+(?:are|is)\b|sure\b|certainly\b|of\s+course\b|absolutely\b|okay\b|ok\b|great\b|(?:i\s+)?hope\s+(?:this|these|that|it)\s+helps?\b|let\s+me\s+know\b|feel\s+free\b|please\s+(?:let|note)\b|note\s*:|these\s+(?:queries|questions|versions|rewrites|variations|alternatives)\b|the\s+(?:above|following)\b|(?:the\s+)?alternative\s+(?:questions|queries|versions)\b|(?:the\s+)?different\s+versions?\b|good\s+luck\b|happy\s+(?:searching|to\s+help)\b|以下是|希望(?:这|這|对|對)|如果您)/iu;

function unwrap(text: string): string {
  let out = text.trim();
  for (let i = 0; i < 3; i += 1) {
    const before = out;
    if (out.length >= 4 && ((out.startsWith('**') && out.endsWith('**')) || (out.startsWith('__') && out.endsWith('__')))) out = out.slice(2, -2).trim();
    const first = out[0];
    const last = out[out.length - 1];
    if (out.length >= 2 && ((first === '"' && last === '"') || (first === '“' && last === '”') || (first === "'" && last === "'") || (first === '`' && last === '`') || (first === '「' && last === '」'))) {
      out = out.slice(1, -1).trim();
    }
    if (out === before) break;
  }
  return out;
}

/**
 * Reads a list from a model reply (sub-queries, claims, questions): one item per line, with list markers (`**1.**`,
 * `(1)`, `1 -`, `1)`, `1.`, `Q1:`, `-`, `*`, `•`), wrapping bold and quotes removed. Lines that talk about the list
 * ("Here are 3 queries:", "Hope this helps!", "Let me know if…", headings, lines ending in ':') are dropped, and when
 * some lines carry list markers, unmarked lines are taken as prose around the list and dropped too. Items are kept
 * in order, duplicates included (callers decide). Pure, never throws, linear time.
 * @example parseListItems('Here are 2 queries:\n1. aspirin fever\n2) antipyretic drugs\nHope this helps!').items
 * // ['aspirin fever', 'antipyretic drugs']
 */
export function parseListItems(reply: string): ParsedListItems {
  if (typeof reply !== 'string') return { items: [], problems: [{ code: 'empty-reply', message: 'the reply is not text' }] };
  const lines = stripCodeFences(dropReasoning(stripInvisible(reply).normalize('NFKC'))).split(/\r?\n|\r/u);
  const candidates: { text: string; marked: boolean }[] = [];
  for (const line of lines) {
    let text = line.trim();
    if (text.length === 0 || /^#{1,6}\s/u.test(text) || /^(?:[-*_=]\s*){3,}$/u.test(text)) continue;
    let marked = false;
    for (let i = 0; i < 2; i += 1) {
      const match = MARKER.exec(text);
      if (!match || match[0].length === 0) break;
      text = text.slice(match[0].length).trim();
      marked = true;
    }
    text = unwrap(text);
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    if (text.endsWith(':') || text.endsWith('：')) continue;
    if (REMARK.test(text) && !text.endsWith('?')) continue;
    candidates.push({ text, marked });
  }
  const anyMarked = candidates.filter((candidate) => candidate.marked).length >= 2;
  const items = candidates.filter((candidate) => !anyMarked || candidate.marked).map((candidate) => candidate.text);
  if (items.length === 0) return { items, problems: [{ code: 'empty-reply', message: 'the reply has no list items' }] };
  return { items, problems: [] };
}
