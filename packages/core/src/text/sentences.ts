/** A sentence with its character offsets in the source text. */
export interface SentenceSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export interface SplitSentencesOptions {
  /**
   * Extra abbreviations (without the final period, case-insensitive) that must not end a sentence.
   * @default []
   */
  readonly abbreviations?: readonly string[];
}

/** Abbreviations that, followed by a period, do not end an English sentence. Lower case, no final period. */
export const ENGLISH_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'ft', 'rev', 'hon', 'gen', 'col', 'lt', 'capt', 'cmdr', 'sgt',
  'rep', 'sen', 'gov', 'pres', 'supt', 'messrs', 'mme', 'mlle',
  'vs', 'v', 'al', 'cf', 'ca', 'approx', 'esp', 'incl', 'viz', 'resp', 'ref', 'refs', 'e.g', 'i.e', 'a.m', 'p.m',
  'fig', 'figs', 'eq', 'eqs', 'no', 'nos', 'vol', 'vols', 'pp', 'p', 'ch', 'sec', 'ed', 'eds', 'op', 'cit',
  'inc', 'ltd', 'co', 'corp', 'dept', 'univ', 'assn', 'bros', 'est',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'u.s', 'u.k', 'u.n', 'e.u', 'u.s.a', 'ph.d', 'm.d', 'b.a', 'm.a', 'b.sc', 'm.sc', 'd.c',
]);

/** Titles that abbreviate only when capitalised ("Ms.", "Dr."); in lower case they are units or words ("20 ms."). */
const TITLE_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'ft', 'rev', 'hon', 'gen', 'col', 'lt', 'capt', 'cmdr', 'sgt',
  'rep', 'sen', 'gov', 'pres', 'supt', 'messrs', 'mme', 'mlle',
]);

const CJK_TERMINATORS = '。！？';
const CLOSERS = `"'”’」』）)]】》`;
const OPENERS = `"'“‘「『（([【《`;

/**
 * A lower-case token that still starts a sentence: a gene, protein or identifier name with a digit or an inner
 * capital ("p53", "mTOR", "iPSC", "miR-21", "daf-2", "rs9930506"), as scientific abstracts begin sentences with.
 */
const GREEK_PREFIX = /^(?:alpha|beta|gamma|delta|epsilon|kappa|lambda|sigma|omega|[α-ω])-/u;

function isIdentifierStart(text: string, index: number): boolean {
  let end = index;
  while (end < text.length && /[\p{L}\p{N}\-]/u.test(text[end] ?? '')) end += 1;
  const token = text.slice(index, end);
  if (!/^\p{Ll}/u.test(token)) return false;
  return /\p{N}/u.test(token) || /^.\P{Lu}*\p{Lu}/u.test(token) || GREEK_PREFIX.test(token);
}

function isUpperOrStart(char: string | undefined): boolean {
  if (char === undefined) return true;
  if (/[0-9]/.test(char)) return true;
  if (OPENERS.includes(char)) return true;
  if (/\p{Lu}/u.test(char)) return true;
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(char)) return true;
  return false;
}

/** The word (letters and internal periods) that ends at position `end` (exclusive), e.g. "U.S" for "the U.S." */
function wordBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && /[\p{L}\p{N}.]/u.test(text[start - 1] ?? '')) start -= 1;
  return text.slice(start, end).replace(/^\.+/, '');
}

function isAbbreviation(word: string, extra: ReadonlySet<string>, charBefore = ''): boolean {
  const lower = word.toLowerCase();
  if (extra.has(lower)) return true;
  // An all-capital acronym ("ED", "MS", "DR", "JUN") is not the abbreviation it spells in lower case ("ed.", "Ms.").
  const isAcronym = word.length >= 2 && !word.includes('.') && word === word.toUpperCase() && word !== lower;
  const isLowerTitle = TITLE_ABBREVIATIONS.has(lower) && word === lower;
  if (!isAcronym && !isLowerTitle && ENGLISH_ABBREVIATIONS.has(lower)) return true;
  // Initials: a single capital letter ("John F. Kennedy", "J. R. R. Tolkien"); a single lower-case letter is a unit
  // or a locator ("24 h.", "p.", "c.").
  // A lower-case letter after "/" and any letter after "°" are units that can end a sentence ("0.4 mg/d.",
  // "37 °C."); a Greek letter is a name's last part ("TNF-α.").
  if (/^\p{Script=Greek}$/u.test(word)) return false;
  if (/^\p{L}$/u.test(word)) return !((charBefore === '/' && /\p{Ll}/u.test(word)) || charBefore === '°');
  // A mixed-case name ending in one capital after a lower-case letter ("p65/RelA.", "NF-κB.", "HRQoL.", "5hmC."):
  // SciFact's reference split does not end a sentence on one (it does after "mRNA.", "mTOR.", which end in two).
  if (/\p{Ll}\p{Lu}$/u.test(word)) return true;
  // Dotted abbreviations: "U.S", "e.g", "Ph.D", "a.m".
  if (/^(?:\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(word)) return true;
  return false;
}

/**
 * Splits English and Chinese text (or a mix) into sentences with their offsets.
 * English: ., ! and ? end a sentence when followed by space and a capital, digit, quote or CJK character,
 * except after abbreviations ("Dr.", "U.S.", "et al.", "e.g."), initials ("F.") and inside decimals ("3.14").
 * Chinese: 。！？ always end a sentence (with any closing quotes that follow). Blank lines always split.
 */
export function segmentSentences(text: string, options: SplitSentencesOptions = {}): SentenceSpan[] {
  const extra = new Set((options.abbreviations ?? []).map((a) => a.toLowerCase().replace(/\.$/, '')));
  const spans: SentenceSpan[] = [];
  let sentenceStart = 0;
  const push = (end: number): void => {
    let start = sentenceStart;
    let stop = end;
    while (start < stop && /\s/u.test(text[start] ?? '')) start += 1;
    while (stop > start && /\s/u.test(text[stop - 1] ?? '')) stop -= 1;
    if (stop > start) spans.push({ text: text.slice(start, stop), start, end: stop });
    sentenceStart = end;
  };

  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (CJK_TERMINATORS.includes(char) || char === '!' || char === '?' || char === '.' || char === '…') {
      // Consume runs of terminators ("?!", "...") and closing quotes/brackets.
      let j = i + 1;
      while (j < text.length && (CJK_TERMINATORS.includes(text[j] ?? '') || '.!?…'.includes(text[j] ?? ''))) j += 1;
      while (j < text.length && CLOSERS.includes(text[j] ?? '')) j += 1;
      const run = text.slice(i, j);
      if (/[。！？]/u.test(run)) {
        push(j);
        i = j;
        continue;
      }
      // ASCII terminator: needs whitespace (or end of text) after it.
      const next = text[j];
      if (next !== undefined && !/\s/u.test(next)) {
        i = j;
        continue;
      }
      let k = j;
      while (k < text.length && /[\s\p{Cf}]/u.test(text[k] ?? '')) k += 1;
      const following = text[k];
      if (!isUpperOrStart(following) && !isIdentifierStart(text, k)) {
        i = j;
        continue;
      }
      if (run === '.' || run.startsWith('.') && !run.startsWith('..')) {
        const word = wordBefore(text, i);
        if (word && isAbbreviation(word, extra, text[i - word.length - 1] ?? '')) {
          i = j;
          continue;
        }
      }
      push(j);
      i = j;
      continue;
    }
    if (char === '\n') {
      // A blank line ends a paragraph and so a sentence.
      let k = i + 1;
      while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\r')) k += 1;
      if (text[k] === '\n') {
        push(i);
        i = k + 1;
        continue;
      }
    }
    i += 1;
  }
  push(text.length);
  return spans;
}

/** Splits text into sentence strings; see {@link segmentSentences}. */
export function splitSentences(text: string, options: SplitSentencesOptions = {}): string[] {
  return segmentSentences(text, options).map((span) => span.text);
}
