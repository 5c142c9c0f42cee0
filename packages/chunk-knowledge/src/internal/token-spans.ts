/** A token of a text with its character offsets (end exclusive). */
export interface TokenSpan {
  readonly start: number;
  readonly end: number;
}

const CJK_CHAR = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const TOKEN = new RegExp(`[${CJK_CHAR}]|[^\\s${CJK_CHAR}]+`, 'gu');

/**
 * Splits `text[from, to)` into tokens: runs of non-space characters, and every Han/Kana character on its own
 * (Chinese and Japanese have no spaces). Whitespace is never part of a token. Linear time.
 */
export function findTokenSpans(text: string, from = 0, to = text.length): TokenSpan[] {
  const slice = from === 0 && to === text.length ? text : text.slice(from, to);
  const spans: TokenSpan[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(slice); match !== null; match = TOKEN.exec(slice)) {
    spans.push({ start: from + match.index, end: from + match.index + match[0].length });
  }
  return spans;
}

/** Replaces lone UTF-16 surrogates with U+FFFD (same length, so offsets stay valid); reports how many were replaced. */
export function replaceLoneSurrogates(text: string): { text: string; replaced: number; firstIndex: number } {
  let replaced = 0;
  let firstIndex = -1;
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
    } else if (code < 0xdc00 || code > 0xdfff) {
      continue;
    }
    parts.push(text.slice(copiedUpTo, i), '\uFFFD');
    copiedUpTo = i + 1;
    if (firstIndex < 0) firstIndex = i;
    replaced += 1;
  }
  if (replaced === 0) return { text, replaced, firstIndex };
  parts.push(text.slice(copiedUpTo));
  return { text: parts.join(''), replaced, firstIndex };
}
