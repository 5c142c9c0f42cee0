// Text helpers shared by core's reply parsers. Only stripCodeFences is public (index.ts); the rest are used inside core.

/** Zero-width characters, soft hyphen and bidirectional controls: invisible, so they never change what a reply says. */
const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/gu;

/** Removes zero-width, soft-hyphen and bidi-control characters. Linear time. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

// Lower-case Cyrillic and Greek letters that look like Latin ones (after NFKC and toLowerCase).
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  а: 'a',
  е: 'e',
  ё: 'e',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  о: 'o',
  р: 'p',
  с: 'c',
  ѕ: 's',
  у: 'y',
  х: 'x',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ɑ: 'a',
  ɡ: 'g',
  ı: 'i',
  ℓ: 'l',
};
const HOMOGLYPH_PATTERN = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'gu');

/** Maps Latin look-alike letters (Cyrillic а, Greek ο, …) of lower-cased text to Latin. Linear time. */
export function foldHomoglyphs(lowerCased: string): string {
  return lowerCased.replace(HOMOGLYPH_PATTERN, (char) => HOMOGLYPHS[char] ?? char);
}

/** Keeps what follows the last `</think>` and drops an unclosed `<think>` block (reasoning models). Linear time. */
export function dropReasoning(text: string): string {
  const lower = text.toLowerCase();
  const close = lower.lastIndexOf('</think>');
  let out = close === -1 ? text : text.slice(close + '</think>'.length);
  const open = (close === -1 ? lower : lower.slice(close + '</think>'.length)).indexOf('<think>');
  if (open !== -1) out = out.slice(0, open);
  return out;
}

const FENCE_LINE = /^[ \t]*(?:```|~~~)[^\n]*(?:\n|$)/gmu;

/**
 * Removes Markdown code-fence lines (```` ``` ````, ```` ```json ````, `~~~`) and keeps what was inside them, trimmed.
 * Pure, linear time, never throws.
 * @example stripCodeFences('```json\n{"a": 1}\n```') // '{"a": 1}'
 */
export function stripCodeFences(text: string): string {
  if (typeof text !== 'string') return '';
  return text.replace(FENCE_LINE, '').trim();
}
