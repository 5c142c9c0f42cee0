/**
 * A word tokenizer that follows Lucene's `StandardTokenizer`: Unicode UAX #29 word boundaries,
 * keeping only segments that contain a letter, digit, Katakana or `_`-joined word; each Han
 * ideograph and each Hiragana character is its own token; runs of South-East Asian scripts
 * (Thai, Lao, Myanmar, Khmer, …) stay whole; tokens longer than `maxTokenLength` are split.
 *
 * Word_Break properties are derived from JavaScript's Unicode property escapes (Node's ICU),
 * which agree with the UAX #29 tables for every Latin, Greek, Cyrillic, CJK and digit character
 * that matters for English and Chinese text; emoji are not emitted as tokens (Lucene ≥ 8 emits
 * them as `<EMOJI>`), a documented difference.
 */

export type TokenType = 'word' | 'ideographic' | 'hiragana' | 'katakana' | 'hangul' | 'southeast-asian';

export interface Token {
  readonly text: string;
  /** UTF-16 offset of the first character. */
  readonly start: number;
  /** UTF-16 offset after the last character. */
  readonly end: number;
  readonly type: TokenType;
}

// Word_Break classes (the subset UAX #29's rules distinguish).
const OTHER = 0;
const ALETTER = 1;
const HEBREW = 2;
const NUMERIC = 3;
const KATAKANA = 4;
const EXTEND_NUM_LET = 5;
const MID_LETTER = 6;
const MID_NUM = 7;
const MID_NUM_LET = 8;
const SINGLE_QUOTE = 9;
const DOUBLE_QUOTE = 10;
const EXTEND = 11; // Extend, Format, ZWJ (WB4: attach to the previous character)
const IDEOGRAPHIC = 12;
const HIRAGANA = 13;
const SOUTHEAST_ASIAN = 14;
const NEWLINE = 15;

const RE_EXTEND = /^[\p{Mn}\p{Me}\p{Mc}\u200C\u200D\u{1F3FB}-\u{1F3FF}]$/u;
const RE_FORMAT = /^\p{Cf}$/u;
const RE_HAN = /^[\p{Script=Han}\u3005\u3007\u3021-\u3029\u3038-\u303B]$/u;
const RE_HIRAGANA = /^\p{Script=Hiragana}$/u;
const RE_KATAKANA = /^[\p{Script=Katakana}\u3031-\u3035\u309B\u309C\u30A0\u30FC\uFF70]$/u;
const RE_SEA = /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}]$/u;
const RE_HEBREW = /^\p{Script=Hebrew}$/u;
const RE_ALPHABETIC = /^\p{Alphabetic}$/u;
const RE_HANGUL = /^\p{Script=Hangul}$/u;
const RE_NUMERIC = /^\p{Nd}$/u;

const MID_LETTER_CHARS = new Set([0x3a, 0xb7, 0x387, 0x55f, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM_CHARS = new Set([0x2c, 0x3b, 0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c, 0xff1b]);
const MID_NUM_LET_CHARS = new Set([0x2e, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);
const EXTEND_NUM_LET_CHARS = new Set([0x5f, 0x202f, 0x203f, 0x2040, 0x2054, 0xfe33, 0xfe34, 0xfe4d, 0xfe4e, 0xfe4f, 0xff3f]);

const ASCII_CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) ASCII_CLASS[code] = classifySlow(code);

const classCache = new Map<number, number>();

function classifySlow(code: number): number {
  if (code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c || code === 0x85 || code === 0x2028 || code === 0x2029) return NEWLINE;
  if (code === 0x27) return SINGLE_QUOTE;
  if (code === 0x22) return DOUBLE_QUOTE;
  if (MID_LETTER_CHARS.has(code)) return MID_LETTER;
  if (MID_NUM_CHARS.has(code)) return MID_NUM;
  if (MID_NUM_LET_CHARS.has(code)) return MID_NUM_LET;
  if (EXTEND_NUM_LET_CHARS.has(code)) return EXTEND_NUM_LET;
  const char = String.fromCodePoint(code);
  if (code === 0x200b) return OTHER;
  if (RE_EXTEND.test(char) || RE_FORMAT.test(char)) return EXTEND;
  if (RE_NUMERIC.test(char)) return NUMERIC;
  if (RE_KATAKANA.test(char)) return KATAKANA;
  if (RE_HIRAGANA.test(char)) return HIRAGANA;
  if (RE_HAN.test(char)) return IDEOGRAPHIC;
  if (RE_SEA.test(char)) return SOUTHEAST_ASIAN;
  if (RE_HEBREW.test(char) && RE_ALPHABETIC.test(char)) return HEBREW;
  if (RE_ALPHABETIC.test(char)) return ALETTER;
  return OTHER;
}

function classify(code: number): number {
  if (code < 128) return ASCII_CLASS[code] as number;
  let cls = classCache.get(code);
  if (cls === undefined) {
    cls = classifySlow(code);
    if (classCache.size < 65536) classCache.set(code, cls);
  }
  return cls;
}

const isAHLetter = (cls: number): boolean => cls === ALETTER || cls === HEBREW;
const isMidLetterQ = (cls: number): boolean => cls === MID_LETTER || cls === MID_NUM_LET || cls === SINGLE_QUOTE;
const isMidNumQ = (cls: number): boolean => cls === MID_NUM || cls === MID_NUM_LET || cls === SINGLE_QUOTE;
const isWordStart = (cls: number): boolean => cls === ALETTER || cls === HEBREW || cls === NUMERIC || cls === KATAKANA || cls === EXTEND_NUM_LET;

export interface StandardTokenizerOptions {
  /** Tokens longer than this (UTF-16 units) are split, as in Lucene. @default 255 */
  readonly maxTokenLength?: number;
}

/**
 * Splits text into tokens the way Lucene's StandardTokenizer does (see the module comment for the
 * documented differences). Pure; never throws on any string.
 */
export function tokenizeStandard(text: string, options: StandardTokenizerOptions = {}): Token[] {
  const tokens: Token[] = [];
  forEachStandardToken(text, options.maxTokenLength ?? 255, (tokenText, start, end, type) => {
    tokens.push({ text: tokenText, start, end, type });
  });
  return tokens;
}

/** Callback form of {@link tokenizeStandard} used on the indexing hot path (no token objects). */
export function forEachStandardToken(text: string, maxTokenLength: number, emit: (text: string, start: number, end: number, type: TokenType) => void): void {
  if (ASCII_ONLY.test(text)) {
    forEachAsciiToken(text, maxTokenLength, emit);
    return;
  }
  // Pass 1: "base" characters with their class; Extend/Format/ZWJ glue onto the previous one (WB4).
  const length = text.length;
  const classes: number[] = [];
  const starts: number[] = [];
  let position = 0;
  while (position < length) {
    let code = text.charCodeAt(position);
    let width = 1;
    if (code >= 0xd800 && code <= 0xdbff && position + 1 < length) {
      const low = text.charCodeAt(position + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const cls = classify(code);
    if (cls === EXTEND && classes.length > 0 && classes[classes.length - 1] !== NEWLINE) {
      // glued to the previous base character: nothing to record
    } else {
      classes.push(cls === EXTEND ? OTHER : cls);
      starts.push(position);
    }
    position += width;
  }
  starts.push(length);
  const count = classes.length;
  const startOf = (index: number): number => starts[index] as number;

  const emitSpan = (from: number, to: number, type: TokenType): void => {
    const start = startOf(from);
    const end = startOf(to);
    if (end - start <= maxTokenLength) {
      emit(text.slice(start, end), start, end, type);
      return;
    }
    for (let chunk = start; chunk < end; chunk += maxTokenLength) {
      const chunkEnd = Math.min(end, chunk + maxTokenLength);
      emit(text.slice(chunk, chunkEnd), chunk, chunkEnd, type);
    }
  };

  let index = 0;
  while (index < count) {
    const cls = classes[index] as number;
    if (cls === IDEOGRAPHIC) {
      emitSpan(index, index + 1, 'ideographic');
      index++;
      continue;
    }
    if (cls === HIRAGANA) {
      emitSpan(index, index + 1, 'hiragana');
      index++;
      continue;
    }
    if (cls === SOUTHEAST_ASIAN) {
      let end = index + 1;
      while (end < count && classes[end] === SOUTHEAST_ASIAN) end++;
      emitSpan(index, end, 'southeast-asian');
      index = end;
      continue;
    }
    if (!isWordStart(cls)) {
      index++;
      continue;
    }
    // A UAX #29 word: extend while no rule breaks.
    let end = index + 1;
    let hasCore = cls !== EXTEND_NUM_LET;
    let allKatakana = cls === KATAKANA;
    for (;;) {
      if (end >= count) break;
      const previous = classes[end - 1] as number;
      const next = classes[end] as number;
      const afterNext = end + 1 < count ? (classes[end + 1] as number) : OTHER;
      if (isAHLetter(previous) && isAHLetter(next))
        end++; // WB5
      else if (isAHLetter(previous) && isMidLetterQ(next) && isAHLetter(afterNext))
        end += 2; // WB6/7
      else if (previous === HEBREW && next === SINGLE_QUOTE)
        end++; // WB7a
      else if (previous === HEBREW && next === DOUBLE_QUOTE && afterNext === HEBREW)
        end += 2; // WB7b/c
      else if (
        (previous === NUMERIC && next === NUMERIC) || // WB8
        (isAHLetter(previous) && next === NUMERIC) || // WB9
        (previous === NUMERIC && isAHLetter(next)) // WB10
      )
        end++;
      else if (previous === NUMERIC && isMidNumQ(next) && afterNext === NUMERIC)
        end += 2; // WB11/12
      else if (previous === KATAKANA && next === KATAKANA)
        end++; // WB13
      else if (isWordStart(previous) && next === EXTEND_NUM_LET)
        end++; // WB13a
      else if (previous === EXTEND_NUM_LET && (isAHLetter(next) || next === NUMERIC || next === KATAKANA))
        end++; // WB13b
      else break;
      const added = classes[end - 1] as number;
      if (added !== EXTEND_NUM_LET && !isMidLetterQ(added) && !isMidNumQ(added) && added !== DOUBLE_QUOTE) hasCore = true;
      if (added !== KATAKANA) allKatakana = false;
    }
    if (hasCore) {
      let type: TokenType = allKatakana ? 'katakana' : 'word';
      if (type === 'word' && isHangulSpan(text, startOf(index), startOf(end))) type = 'hangul';
      emitSpan(index, end, type);
    }
    index = end;
  }
}

// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** The same rules specialised to ASCII text (no Extend/Format, Hebrew or Katakana classes), without per-text arrays. */
function forEachAsciiToken(text: string, maxTokenLength: number, emit: (text: string, start: number, end: number, type: TokenType) => void): void {
  const length = text.length;
  let index = 0;
  while (index < length) {
    const cls = ASCII_CLASS[text.charCodeAt(index)] as number;
    if (!isWordStart(cls)) {
      index++;
      continue;
    }
    let end = index + 1;
    let hasCore = cls !== EXTEND_NUM_LET;
    let previous = cls;
    while (end < length) {
      const next = ASCII_CLASS[text.charCodeAt(end)] as number;
      let step = 0;
      if (previous === ALETTER) {
        if (next === ALETTER || next === NUMERIC || next === EXTEND_NUM_LET) step = 1;
        else if ((next === MID_LETTER || next === MID_NUM_LET || next === SINGLE_QUOTE) && end + 1 < length && ASCII_CLASS[text.charCodeAt(end + 1)] === ALETTER) step = 2;
      } else if (previous === NUMERIC) {
        if (next === NUMERIC || next === ALETTER || next === EXTEND_NUM_LET) step = 1;
        else if ((next === MID_NUM || next === MID_NUM_LET || next === SINGLE_QUOTE) && end + 1 < length && ASCII_CLASS[text.charCodeAt(end + 1)] === NUMERIC) step = 2;
      } else if (previous === EXTEND_NUM_LET) {
        if (next === ALETTER || next === NUMERIC || next === EXTEND_NUM_LET) step = 1;
      }
      if (step === 0) break;
      end += step;
      previous = ASCII_CLASS[text.charCodeAt(end - 1)] as number;
      if (previous !== EXTEND_NUM_LET) hasCore = true;
    }
    if (hasCore) {
      if (end - index <= maxTokenLength) emit(text.slice(index, end), index, end, 'word');
      else for (let chunk = index; chunk < end; chunk += maxTokenLength) emit(text.slice(chunk, Math.min(end, chunk + maxTokenLength)), chunk, Math.min(end, chunk + maxTokenLength), 'word');
    }
    index = end;
  }
}

function isHangulSpan(text: string, start: number, end: number): boolean {
  const code = text.charCodeAt(start);
  if (code < 0x1100) return false;
  for (const char of text.slice(start, end)) if (!RE_HANGUL.test(char)) return false;
  return true;
}
