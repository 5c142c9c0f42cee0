import type { ItemProblem } from '@factkit/core';
import type { FastTrackProblemCode } from '../problem-codes.js';

export interface ParsedKeywords {
  /** Keywords in reply order, trimmed, deduplicated case-insensitively. */
  readonly keywords: string[];
  /** `empty-reply`, `missing-section` (no `#keywords:` marker; parsed from the whole reply), `no-keywords`, `keyword-count` (outside 5–10). */
  readonly problems: ItemProblem<FastTrackProblemCode>[];
}

const MARKER = /\bkeywords?\s*\**\s*[:：]\s*\**/i;

/**
 * Parses a reply to `FASTTRACK_PROMPTS.keyword`: the text after `#keywords:` (any case; `**Keywords:**`, `# Keywords:` and a
 * full-width colon also count), split on commas, semicolons, newlines and bullets; list numbers, quotes and
 * trailing periods are stripped, and the prompt's own placeholder echo is dropped. Pure, linear-time, never throws.
 */
export function parseKeywords(reply: string): ParsedKeywords {
  const problems: ItemProblem<FastTrackProblemCode>[] = [];
  const text = typeof reply === 'string' ? reply : '';
  if (text.trim().length === 0) return { keywords: [], problems: [{ code: 'empty-reply', message: 'the reply is empty' }] };
  const match = MARKER.exec(text);
  let section: string;
  if (match) {
    section = text.slice(match.index + match[0].length);
    // Stop at a following '#section:' or an '[note: ...]' echo.
    const end = section.search(/\n\s*#\s*\w+\s*:|\[note:/i);
    if (end >= 0) section = section.slice(0, end);
  } else {
    problems.push({ code: 'missing-section', message: 'no "#keywords:" section; keywords read from the whole reply', raw: text.slice(0, 200) });
    section = text;
  }
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const piece of section.split(/[,;\n，、]/)) {
    const keyword = piece
      .replace(/^\s*(?:[-*•]|\d{1,2}[.)])\s+/, '')
      .replace(/^[\s"'“”‘’`*]+|[\s"'“”‘’`*.]+$/g, '')
      .replace(/\s+/g, ' ');
    if (keyword.length === 0 || /^your keywords here$/i.test(keyword)) continue;
    const key = keyword.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    keywords.push(keyword);
  }
  if (keywords.length === 0) problems.push({ code: 'no-keywords', message: 'no keyword found in the reply', raw: text.slice(0, 200) });
  else if (keywords.length < 5 || keywords.length > 10) problems.push({ code: 'keyword-count', message: `${keywords.length} keywords (the prompt asks for 5 to 10)` });
  return { keywords, problems };
}
