import { assertPositiveInteger, InvalidArgumentError, LUCENE_ENGLISH_STOP_WORDS } from '@factkit/core';
import { stemPorterLucene } from './porter-stemmer.js';
import { forEachStandardToken, type TokenType } from './standard-tokenizer.js';

/** Turns text into index terms. Implement it to plug your own analysis into the BM25 index. */
export interface Analyzer {
  /** Stable name, stored in saved indexes so a query is analysed like the documents were. */
  readonly id: string;
  /** Terms in text order; repeated terms repeat. Must be pure and never throw on a string. */
  analyze(text: string): string[];
}

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`: core's list, re-exported (one array, not a copy). */
export { LUCENE_ENGLISH_STOP_WORDS };

/** Lucene's `CJKAnalyzer` default stop set (`org/apache/lucene/analysis/cjk/stopwords.txt`). */
export const LUCENE_CJK_STOP_WORDS: readonly string[] = [
  'a',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  's',
  'such',
  't',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
  'www',
];

export interface EnglishAnalyzerOptions {
  /** Stop words removed after lower-casing. @default LUCENE_ENGLISH_STOP_WORDS */
  readonly stopWords?: readonly string[];
  /** `'porter'` = Lucene's PorterStemFilter; `'none'` keeps words whole. @default 'porter' */
  readonly stemmer?: 'porter' | 'none';
  /** Remove a trailing `'s` / `’s` like Lucene's EnglishPossessiveFilter. @default true */
  readonly possessive?: boolean;
  /** Tokens longer than this are split (Lucene's StandardTokenizer). @default 255 */
  readonly maxTokenLength?: number;
}

/** Java's `Character.toLowerCase` applied code point by code point (no Greek final-sigma context, `İ` → `i`). */
export function lowerCaseLikeLucene(token: string): string {
  let ascii = true;
  for (let index = 0; index < token.length; index++) {
    if (token.charCodeAt(index) > 127) {
      ascii = false;
      break;
    }
  }
  if (ascii) return token.toLowerCase();
  let out = '';
  for (const char of token) {
    if (char === '\u0130') out += 'i';
    else {
      const lower = char.toLowerCase();
      out += lower.length === char.length ? lower : char;
    }
  }
  return out;
}

function stripPossessive(token: string): string {
  const length = token.length;
  if (length < 2) return token;
  const last = token.charCodeAt(length - 1);
  const quote = token.charCodeAt(length - 2);
  if ((last === 0x73 || last === 0x53) && (quote === 0x27 || quote === 0x2019 || quote === 0xff07)) return token.slice(0, length - 2);
  return token;
}

/**
 * Lucene's English analysis as Anserini's default analyzer runs it: StandardTokenizer →
 * EnglishPossessiveFilter → LowerCaseFilter → StopFilter (Lucene's English stop set) → PorterStemFilter.
 * @example createEnglishAnalyzer().analyze("The Cat's running") // ['cat', 'run']
 */
export function createEnglishAnalyzer(options: EnglishAnalyzerOptions = {}): Analyzer {
  const { stopWords = LUCENE_ENGLISH_STOP_WORDS, stemmer = 'porter', possessive = true, maxTokenLength = 255 } = options;
  if (stemmer !== 'porter' && stemmer !== 'none') {
    throw new InvalidArgumentError({ where: 'createEnglishAnalyzer', argument: 'stemmer', message: `must be 'porter' or 'none' (got ${String(stemmer)})` });
  }
  assertPositiveInteger('maxTokenLength', maxTokenLength, 'createEnglishAnalyzer');
  const stopSet = new Set(stopWords);
  const stem = stemmer === 'porter';
  // raw token → final term ('' = dropped). Bounded; the analysis of a token never depends on its context.
  const cache = new Map<string, string>();
  const isDefault = stopWords === LUCENE_ENGLISH_STOP_WORDS && stem && possessive;
  const process = (raw: string): string => {
    const lower = lowerCaseLikeLucene(possessive ? stripPossessive(raw) : raw);
    if (lower.length === 0 || stopSet.has(lower)) return '';
    return stem ? stemPorterLucene(lower) : lower;
  };
  return {
    id: isDefault ? 'lucene-english' : `lucene-english(stop=${stopWords.length},stemmer=${stemmer},possessive=${possessive})`,
    analyze(text: string): string[] {
      const terms: string[] = [];
      forEachStandardToken(String(text), maxTokenLength, (raw) => {
        let term = cache.get(raw);
        if (term === undefined) {
          term = process(raw);
          if (cache.size < 500_000) cache.set(raw, term);
        }
        if (term.length > 0) terms.push(term);
      });
      return terms;
    },
  };
}

/** Lucene's `CJKWidthFilter`: full-width ASCII → ASCII, half-width Katakana → full-width. */
function foldWidth(token: string): string {
  let needs = false;
  for (let index = 0; index < token.length; index++) {
    const code = token.charCodeAt(index);
    if (code >= 0xff01 && code <= 0xff9f) {
      needs = true;
      break;
    }
  }
  if (!needs) return token;
  let out = '';
  for (const char of token) {
    const code = char.codePointAt(0) as number;
    out += code >= 0xff01 && code <= 0xff9f ? char.normalize('NFKC') : char;
  }
  return out;
}

const CJK_TYPES: ReadonlySet<TokenType> = new Set<TokenType>(['ideographic', 'hiragana', 'katakana', 'hangul']);

export interface ChineseAnalyzerOptions {
  /** @default LUCENE_CJK_STOP_WORDS */
  readonly stopWords?: readonly string[];
}

/**
 * Lucene's `CJKAnalyzer`: StandardTokenizer → CJKWidthFilter → LowerCaseFilter → CJKBigramFilter
 * (overlapping bigrams of adjacent Han/Kana/Hangul characters; a lone character stays a unigram) →
 * StopFilter. Non-CJK words pass through unchanged.
 * @example createChineseAnalyzer().analyze('事实核查') // ['事实', '实核', '核查']
 */
export function createChineseAnalyzer(options: ChineseAnalyzerOptions = {}): Analyzer {
  const { stopWords = LUCENE_CJK_STOP_WORDS } = options;
  const stopSet = new Set(stopWords);
  return {
    id: stopWords === LUCENE_CJK_STOP_WORDS ? 'lucene-cjk' : `lucene-cjk(stop=${stopWords.length})`,
    analyze(text: string): string[] {
      const terms: string[] = [];
      let run: string[] = [];
      let runEnd = -1;
      const flush = (): void => {
        if (run.length === 1) terms.push(run[0] as string);
        else for (let index = 0; index + 1 < run.length; index++) terms.push((run[index] as string) + (run[index + 1] as string));
        run = [];
      };
      const push = (term: string): void => {
        if (!stopSet.has(term)) terms.push(term);
      };
      forEachStandardToken(String(text), 255, (raw, start, end, type) => {
        const token = lowerCaseLikeLucene(foldWidth(raw));
        if (CJK_TYPES.has(type)) {
          if (start !== runEnd) flush();
          for (const char of token) run.push(char);
          runEnd = end;
          return;
        }
        flush();
        runEnd = -1;
        push(token);
      });
      flush();
      return terms;
    },
  };
}
