import { InvalidArgumentError } from '../errors/factkit-error.js';
import { assertString } from '../errors/guards.js';
/** A sentence with its character offsets in the source text. */
export interface SentenceSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Which segmentation to reproduce.
 * - `'default'`: the best split of ordinary English/Chinese text (and scientific prose).
 * - `'scifact'`: reproduces the segmentation of the SciFact corpus (`corpus_sentences`, Wadden et al. 2020), including
 *   its known quirks: it splits after "+/-" followed by a space, before "refs. 5" / "p. Arg139Cys" / "An. gambiae"
 *   (a period ends a sentence before any lower-case word unless the word before it is a listed abbreviation or an
 *   initial), makes a lone straight quote or "…" after a sentence a sentence of its own (a lone curly quote starts
 *   the next one), never ends a sentence after a single lower-case letter ("cytochrome c."), a URL ending in "/." or a
 *   period followed by exactly three spaces and an all-capital section heading ("Washington.   PARTICIPANTS Patients"),
 *   a dotted lower-case abbreviation before a number ("i.p.) 24 h"), LaTeX markup ("\\emph{…}.") or an omission mark
 *   after a space ("for … RETURN"); it starts one at a radical written with a leading period (".O2- formation").
 *   Measured: 5,080 of SciFact's 5,183 abstracts split identically (98.01%; 'default': 94.96%). Use it to index text
 *   the way SciFact's evidence sentence ids count it; do not use it for ordinary text.
 */
export type SentenceProfile = 'default' | 'scifact';

export interface SplitSentencesOptions {
  /**
   * Extra abbreviations (without the final period, case-insensitive) that must not end a sentence.
   * @default []
   */
  readonly abbreviations?: readonly string[];
  /**
   * The segmentation to reproduce; see {@link SentenceProfile}.
   * @default 'default'
   */
  readonly profile?: SentenceProfile;
}

/** Titles that abbreviate only when capitalised ("Ms.", "Dr."); in lower case they are units or words ("20 ms."). */
const TITLE_ABBREVIATION_LIST: readonly string[] = ['mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'ft', 'rev', 'hon', 'gen', 'col', 'lt', 'capt', 'cmdr', 'sgt', 'rep', 'sen', 'gov', 'pres', 'supt', 'messrs', 'mme', 'mlle'];
const TITLE_ABBREVIATIONS: ReadonlySet<string> = new Set(TITLE_ABBREVIATION_LIST);

/** Abbreviations that, followed by a period, do not end an English sentence. Lower case, no final period. */
export const ENGLISH_ABBREVIATIONS: ReadonlySet<string> = new Set([
  ...TITLE_ABBREVIATION_LIST,
  'vs',
  'v',
  'al',
  'cf',
  'ca',
  'approx',
  'esp',
  'incl',
  'viz',
  'resp',
  'ref',
  'refs',
  'e.g',
  'i.e',
  'a.m',
  'p.m',
  'fig',
  'figs',
  'eq',
  'eqs',
  'no',
  'nos',
  'vol',
  'vols',
  'pp',
  'p',
  'ch',
  'sec',
  'ed',
  'eds',
  'op',
  'cit',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'univ',
  'assn',
  'bros',
  'est',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'u.k',
  'u.n',
  'e.u',
  'u.s.a',
  'ph.d',
  'm.d',
  'b.a',
  'm.a',
  'b.sc',
  'm.sc',
  'd.c',
]);

/**
 * Abbreviations that are also words or often end a sentence ("etc.", "max."): they keep a sentence going only before a
 * lower-case word ("max. value", "etc. and so on"), not before a capital.
 */
const LOWER_CONTINUING_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'etc',
  'max',
  'min',
  'avg',
  'conc',
  'temp',
  'assoc',
  'cont',
  'ext',
  'tel',
  'var',
  'ssp',
  'subsp',
  'spp',
  'sp',
  'cv',
  'sq',
  'wt',
  'dia',
  'diam',
  'abs',
  'rel',
  'corr',
  'std',
  'spec',
  'prep',
  'exp',
  'obs',
  'orig',
  'syn',
  'aff',
]);

/**
 * Abbreviations that SciFact's split does not end a sentence after, even before a lower-case word ("vs. non-smokers",
 * "e.g. aspirin"); every other word with a period does ("(ref. 4)", "s.c. injection", "An. gambiae").
 */
const SCIFACT_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'v',
  'al',
  'cf',
  'ca',
  'approx',
  'e.g',
  'i.e',
  'a.m',
  'p.m',
  'fig',
  'figs',
  'eq',
  'eqs',
  'no',
  'nos',
  'inc',
  'ltd',
  'co',
  'corp',
  'u.s',
  'u.k',
  'u.n',
  'e.u',
  'u.s.a',
  'ph.d',
  'm.d',
  'sp',
  'spp',
  'sec',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/** Quote marks that, standing alone after a sentence end ("the term \"NETosis. \" Here"), close that sentence. */
const LONE_QUOTES = `"'”’`;

const CJK_TERMINATORS = '。！？';
const CLOSERS = `"'”’」』）)]】》`;
const OPENERS = `"'“‘「『（([【《\``;

/**
 * A lower-case token that still starts a sentence: a gene, protein or identifier name with a digit or an inner
 * capital ("p53", "mTOR", "iPSC", "miR-21", "daf-2", "rs9930506"), as scientific abstracts begin sentences with.
 */
const GREEK_PREFIX = /^(?:alpha|beta|gamma|delta|epsilon|kappa|lambda|sigma|omega|[α-ω])-/u;

function isIdentifierStart(text: string, index: number): boolean {
  let end = index;
  while (end < text.length && /[\p{L}\p{N}-]/u.test(text[end] ?? '')) end += 1;
  const token = text.slice(index, end);
  if (!/^\p{Ll}/u.test(token)) return false;
  return /\p{N}/u.test(token) || /^.\P{Lu}*\p{Lu}/u.test(token) || GREEK_PREFIX.test(token);
}

function isUpperOrStart(char: string | undefined, nextChar?: string): boolean {
  if (char === undefined) return true;
  // An em dash opening a run-in section ("Results. —Among the subjects…").
  if (char === '—') return nextChar !== undefined && /\p{L}/u.test(nextChar);
  if (/[0-9]/.test(char)) return true;
  if (OPENERS.includes(char)) return true;
  // A copyright line after an abstract ("… cells. © 2016 AACR.") and a Markdown heading ("### Methods") start a
  // sentence of their own.
  if (char === '©' || char === '#') return true;
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

interface AbbreviationContext {
  readonly extra: ReadonlySet<string>;
  /** The character before the word ("°", "/", "("). */
  readonly charBefore: string;
  /** The word follows a number and a space ("24 h."). */
  readonly afterNumber: boolean;
  /** The next sentence would start with a lower-case word. */
  readonly lowerNext: boolean;
  /** The next sentence would start with a digit. */
  readonly digitNext: boolean;
  readonly profile: SentenceProfile;
}

function isAbbreviation(word: string, context: AbbreviationContext): boolean {
  const { extra, charBefore, afterNumber, lowerNext, profile } = context;
  const lower = word.toLowerCase();
  if (extra.has(lower)) return true;
  // "the 1980's." and "Smith's." end in a word, not an abbreviation.
  if (charBefore === "'" || charBefore === '’') return false;
  if (profile === 'scifact') return isSciFactAbbreviation(word, lower, context);
  // An all-capital acronym ("ED", "MS", "DR", "JUN") is not the abbreviation it spells in lower case ("ed.", "Ms.").
  const isAcronym = word.length >= 2 && !word.includes('.') && word === word.toUpperCase() && word !== lower;
  const isLowerTitle = TITLE_ABBREVIATIONS.has(lower) && word === lower;
  if (!isAcronym && !isLowerTitle && ENGLISH_ABBREVIATIONS.has(lower)) return true;
  // Initials: a single capital letter ("John F. Kennedy", "J. R. R. Tolkien"); a single lower-case letter right after
  // a number ("24 h.", "3 d.") or before a lower-case word ("e. g. on") is an abbreviation, elsewhere a word ("plan
  // b.", "A b. C d."). A lower-case letter after "/"
  // and any letter after "°" are units that can end a sentence ("0.4 mg/d.", "37 °C."); a Greek letter is a name's
  // last part ("TNF-α.").
  if (/^\p{Script=Greek}$/u.test(word)) return false;
  if (/^\p{Lu}$/u.test(word)) return charBefore !== '°';
  if (/^\p{Ll}$/u.test(word)) return (afterNumber || lowerNext) && charBefore !== '/';
  // A mixed-case name ending in one capital after a lower-case letter ("p65/RelA.", "NF-κB.", "HRQoL.", "5hmC."):
  // SciFact's reference split does not end a sentence on one (it does after "mRNA.", "mTOR.", which end in two).
  if (/\p{Ll}\p{Lu}$/u.test(word)) return true;
  // A name whose last part after a period is one capital letter ("H2A.Z.", "J.R.R.") is not a sentence end.
  if (/\.\p{Lu}$/u.test(word)) return true;
  // Dotted abbreviations: "U.S", "e.g", "Ph.D", "a.m".
  if (/^(?:\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(word)) return true;
  // Before a lower-case word only a known abbreviation keeps the sentence going; an unknown short word is taken for
  // one ("approx. five", "Jan. through"), a word of three letters or more is not ("ticagrelor reduced…").
  if (lowerNext) return word.length < 3 || /\./u.test(word) || LOWER_CONTINUING_ABBREVIATIONS.has(lower);
  return false;
}

/** SciFact's split: see {@link SentenceProfile}. */
function isSciFactAbbreviation(word: string, lower: string, context: AbbreviationContext): boolean {
  const { charBefore, lowerNext, digitNext } = context;
  // An all-capital acronym ("AL.", "SR.", "MS.") is not the abbreviation it spells; a title is one only capitalised.
  const isAcronym = word.length >= 2 && !word.includes('.') && word === word.toUpperCase() && word !== lower;
  const isLowerTitle = TITLE_ABBREVIATIONS.has(lower) && word === lower;
  // A listed abbreviation is a word of its own ("vs.", "(e.g."), not the end of a name ("c-Jun.", "A(H1N1)v.").
  const standsAlone = charBefore === '' || /[\s([]/u.test(charBefore);
  // "approx." and "ca." end a sentence before a number ("(IC50 approx. 15 M)" is two of its sentences).
  if ((lower === 'approx' || lower === 'ca') && digitNext) return false;
  if (!isAcronym && !isLowerTitle && standsAlone && SCIFACT_ABBREVIATIONS.has(lower)) return true;
  if (lower === 'etc') return lowerNext;
  // Single letters: initials and name parts ("S. pneumoniae", "J. Smith", "RIG-I.", "nmol/L.", "25(OH)D.") and
  // lower-case letters ("cytochrome c.", "24 h."), but not "°C." nor a lower-case letter after "/", "-" or a bracket
  // ("0.4 mg/d.", "Bcl-x.", "A(H1N1)v.", "[K+]e."), nor "p." before a capital (the protein-change prefix in "p. Arg139Cys",
  // where it splits too; "p. 561" is a page).
  if (/^\p{Script=Greek}$/u.test(word)) return false;
  if (/^\p{Lu}$/u.test(word)) return charBefore !== '°';
  if (word === 'p') return digitNext;
  if (/^\p{Ll}$/u.test(word)) return !'/-)]'.includes(charBefore) || charBefore === '';
  if (/\p{Ll}\p{Lu}$/u.test(word) || /\.\p{Lu}$/u.test(word)) return true;
  // A dotted lower-case abbreviation before a number ("(PDTC, 100 mg/kg, i.p.) 24 h before") does not end a sentence.
  if (digitNext && /^(?:\p{Ll}\.)+\p{Ll}$/u.test(word)) return true;
  // Dotted initials ("J.G.", "I.-S.") but not dotted lower-case abbreviations, which it splits after ("s.c.", "i.p.").
  return /^(?:\p{Lu}\.)+\p{Lu}$/u.test(word);
}

/**
 * Splits English and Chinese text (or a mix) into sentences with their offsets, in time linear in the text's length.
 * English: ., ! and ? end a sentence when followed by space and a capital, digit, quote, "©", "#" or CJK character,
 * or a lower-case gene/identifier name ("p53", "mTOR"); a period also before any lower-case word when the word before
 * it is not an abbreviation. Not after abbreviations ("Dr.", "U.S.", "et al.", "e.g."), initials ("F."), inside
 * decimals ("3.14") or before a number inside an open bracket ("(10. 4%)").
 * Chinese: 。！？ always end a sentence (with any closing quotes that follow). Blank lines always split.
 * `options.profile: 'scifact'` reproduces SciFact's split instead; see {@link SentenceProfile}.
 * @throws InvalidArgumentError when `text` is not a string or `options.profile` is not a known profile.
 */
export function segmentSentences(text: string, options: SplitSentencesOptions = {}): SentenceSpan[] {
  assertString('text', text, 'segmentSentences');
  const extra = new Set((options.abbreviations ?? []).map((a) => a.toLowerCase().replace(/\.$/, '')));
  const profile = options.profile ?? 'default';
  if (profile !== 'default' && profile !== 'scifact') {
    throw new InvalidArgumentError({ where: 'segmentSentences', argument: 'options.profile', message: `must be 'default' or 'scifact' (got ${String(profile)})` });
  }
  const scan: SentenceScan = { text, extra, profile, scifact: profile === 'scifact', spans: [], sentenceStart: 0, openBrackets: 0 };
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    // SciFact's split does not end a sentence at an omission mark after a space ("the argument for … RETURN").
    if (scan.scifact && char === '…' && /\s/u.test(text[i - 1] ?? '')) i += 1;
    else if (CJK_TERMINATORS.includes(char) || char === '!' || char === '?' || char === '.' || char === '…') i = afterTerminator(scan, i);
    else i = afterOtherCharacter(scan, i);
  }
  pushSentence(scan, text.length);
  return scan.spans;
}

/** The state of one {@link segmentSentences} pass. */
interface SentenceScan {
  readonly text: string;
  readonly extra: ReadonlySet<string>;
  readonly profile: SentenceProfile;
  readonly scifact: boolean;
  readonly spans: SentenceSpan[];
  /** Where the current sentence starts. */
  sentenceStart: number;
  /** Brackets opened and not yet closed in the current sentence: "(10. 4%)" and "[7. 1-10.5]" do not end it. */
  openBrackets: number;
}

/** Ends the current sentence at `end` (trimmed; an all-space sentence is dropped) and starts the next one there. */
function pushSentence(scan: SentenceScan, end: number): void {
  const { text } = scan;
  let start = scan.sentenceStart;
  let stop = end;
  while (start < stop && /\s/u.test(text[start] ?? '')) start += 1;
  while (stop > start && /\s/u.test(text[stop - 1] ?? '')) stop -= 1;
  if (stop > start) scan.spans.push({ text: text.slice(start, stop), start, end: stop });
  scan.sentenceStart = end;
  scan.openBrackets = 0;
}

function skipSpace(text: string, from: number): number {
  let k = from;
  while (k < text.length && /[\s\p{Cf}]/u.test(text[k] ?? '')) k += 1;
  return k;
}

/** Consumes a run of terminators ("?!", "...") and the closing quotes and brackets after it; returns where it ends. */
function terminatorRunEnd(scan: SentenceScan, i: number): number {
  const { text } = scan;
  let j = i + 1;
  while (j < text.length && (CJK_TERMINATORS.includes(text[j] ?? '') || '.!?…'.includes(text[j] ?? ''))) j += 1;
  while (j < text.length && CLOSERS.includes(text[j] ?? '')) {
    if ((text[j] === ')' || text[j] === ']') && scan.openBrackets > 0) scan.openBrackets -= 1;
    j += 1;
  }
  return j;
}

/** What follows an ASCII terminator run ending at `j`: where the next sentence would start, past a lone quote mark. */
interface AfterTerminator {
  /** The terminator run, e.g. ".", "?!", "...\"". */
  readonly run: string;
  /** Index of the first character of the next sentence. */
  readonly k: number;
  /** End of a quote mark standing alone after the terminator, or -1. */
  readonly loneQuoteEnd: number;
  readonly following: string | undefined;
  readonly lowerNext: boolean;
  readonly singlePeriod: boolean;
}

function readAfterTerminator(scan: SentenceScan, i: number, j: number): AfterTerminator {
  const { text, scifact } = scan;
  let k = skipSpace(text, j);
  // A quote mark standing alone after the terminator ('the term "NETosis. " Here') closes this sentence: the
  // default profile keeps it in the sentence, SciFact's split makes it a sentence of its own.
  let loneQuoteEnd = -1;
  const loneMarks = scifact ? `${LONE_QUOTES}…■` : LONE_QUOTES;
  if (k < text.length && loneMarks.includes(text[k] ?? '') && (k + 1 === text.length || /\s/u.test(text[k + 1] ?? ''))) {
    loneQuoteEnd = k + 1;
    k = skipSpace(text, k + 1);
  }
  const following = text[k];
  const run = text.slice(i, j);
  return {
    run,
    k,
    loneQuoteEnd,
    following,
    lowerNext: following !== undefined && /\p{Ll}/u.test(following) && !isIdentifierStart(text, k),
    singlePeriod: run.startsWith('.') && !run.startsWith('..'),
  };
}

/** Whether the next sentence may start at `after.k`: a capital, digit, identifier, or (on conditions) a lower-case word. */
function nextMayStartSentence(scan: SentenceScan, after: AfterTerminator): boolean {
  const { text, scifact } = scan;
  const { run, k, following, lowerNext, singlePeriod } = after;
  // Before a lower-case word only a bare period can end a sentence ("i.p.) and" does not).
  // SciFact's split also ends a sentence at "!" or "?" before one ("the UseR! series").
  const lowerMayEnd = lowerNext && (scifact ? run === '.' || run === '!' || run === '?' : singlePeriod);
  // SciFact's split also starts a sentence at a radical written with a leading period (".O2- formation", ".NO").
  const radicalNext = scifact && following === '.' && /\p{Lu}/u.test(text[k + 1] ?? '');
  return isUpperOrStart(following, text[k + 1]) || isIdentifierStart(text, k) || lowerMayEnd || radicalNext;
}

/** Whether a single period at `i` stays inside the sentence: an abbreviation, initial, LaTeX markup or a broken URL. */
function periodContinues(scan: SentenceScan, i: number, after: AfterTerminator): boolean {
  const { text, extra, profile, scifact } = scan;
  const { following, lowerNext } = after;
  const word = wordBefore(text, i);
  const before = i - word.length - 1;
  const afterNumber = /\p{N}/u.test(text[before - 1] ?? '') && /\s/u.test(text[before] ?? '');
  const digitNext = following !== undefined && /\p{N}/u.test(following);
  const context = { extra, charBefore: text[before] ?? '', afterNumber, lowerNext, digitNext, profile };
  // SciFact's split does not end a sentence at a period after LaTeX markup ("\\emph{all relevant variables}. The").
  if (scifact && text[i - 1] === '}') return true;
  if (word && isAbbreviation(word, context)) return true;
  if (!word && lowerNext && !scifact) return true;
  // A URL before a lower-case word is broken ("http://x.org/embl. html"); SciFact's split also keeps
  // "http://x.org/db/." in the sentence.
  return ((scifact && text[i - 1] === '/') || lowerNext) && isUrlBefore(text, i);
}

/** Whether the ASCII terminator run from `i` to `j` ends the sentence, given what follows it. */
function endsSentence(scan: SentenceScan, i: number, j: number, after: AfterTerminator): boolean {
  const { text, scifact } = scan;
  const { run, k, loneQuoteEnd, following, singlePeriod } = after;
  if (!nextMayStartSentence(scan, after)) return false;
  // A number inside an open bracket continues the sentence ("(P<. 001)", "(av. 441 mg/d)", "[7. 1-10.5]"); SciFact's
  // split only keeps broken decimals and comparisons together ("(10. 4%)", "(P<. 001)"), not "(av. 441".
  if (scan.openBrackets > 0 && following !== undefined && /\p{N}/u.test(following) && (!scifact || /[\p{N}<>=]/u.test(text[i - 1] ?? ''))) return false;
  if (singlePeriod && periodContinues(scan, i, after)) return false;
  // SciFact's split keeps a sentence going over exactly three spaces before an all-capital section heading
  // ("… Seattle, Washington.   PARTICIPANTS Patients with …"; 0 of 15 split there), but not over a line break or
  // four spaces (2,985 of 2,985 split).
  return !(scifact && run === '.' && loneQuoteEnd < 0 && k === j + 3 && text.startsWith('   ', j) && isCapitalHeadingAt(text, k));
}

/** Handles a terminator at `i` (。！？ always end a sentence; ., !, ?, … on conditions); returns where to go on. */
function afterTerminator(scan: SentenceScan, i: number): number {
  const { text, scifact } = scan;
  const j = terminatorRunEnd(scan, i);
  if (/[。！？]/u.test(text.slice(i, j))) {
    pushSentence(scan, j);
    return j;
  }
  // ASCII terminator: needs whitespace (or end of text) after it.
  const next = text[j];
  if (next !== undefined && !/\s/u.test(next)) return j;
  const after = readAfterTerminator(scan, i, j);
  if (!endsSentence(scan, i, j, after)) return j;
  const { loneQuoteEnd } = after;
  if (loneQuoteEnd >= 0 && scifact) {
    // SciFact's split makes a straight quote a sentence of its own and lets a curly one start the next sentence.
    pushSentence(scan, j);
    if (text[loneQuoteEnd - 1] !== '”' && text[loneQuoteEnd - 1] !== '’') pushSentence(scan, loneQuoteEnd);
  } else {
    pushSentence(scan, loneQuoteEnd >= 0 ? loneQuoteEnd : j);
  }
  return loneQuoteEnd >= 0 ? loneQuoteEnd : j;
}

/** Handles any other character at `i`: brackets, SciFact's "+/-" split, blank lines; returns where to go on. */
function afterOtherCharacter(scan: SentenceScan, i: number): number {
  const { text, scifact } = scan;
  const char = text[i] ?? '';
  if (char === '(' || char === '[') scan.openBrackets += 1;
  else if ((char === ')' || char === ']') && scan.openBrackets > 0) scan.openBrackets -= 1;
  // SciFact's split ends a sentence after "+/-" followed by a space ("1.4 +/- 0.24" is two of its sentences).
  // Not after a genotype glued to its gene ("ApcMin+/- mouse").
  if (scifact && char === '+' && text.startsWith('+/-', i) && /\s/u.test(text[i + 3] ?? '') && !/\p{L}/u.test(text[i - 1] ?? '') && !isBracketedComparison(text, i)) {
    pushSentence(scan, i + 3);
    return i + 3;
  }
  if (char === '\n') {
    // A blank line ends a paragraph and so a sentence.
    let k = i + 1;
    while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\r')) k += 1;
    if (text[k] === '\n') {
      pushSentence(scan, i);
      return k + 1;
    }
  }
  return i + 1;
}

/**
 * SciFact's split mostly keeps "+/-" whole when it opens a bracketed comparison of plain numbers: "(0.65 +/- 0.16 vs.
 * 1.78 +/- 0.43)" and "(11.1 +/- 4.0 [SD] vs 10.5 …" split after the second "+/-" only, but percentages ("(55.9% +/- 4%
 * vs 17.1% …") and values with a unit ("(9.15 +/- 0.11 microns vs. …") split after both. Looks at most 40 characters
 * either side.
 */
function isBracketedComparison(text: string, plusAt: number): boolean {
  const before = text.slice(Math.max(0, plusAt - 40), plusAt);
  const after = text.slice(plusAt + 3, plusAt + 43);
  return /[([][\d.,]+ ?$/u.test(before) && /^ [\d.,]+(?: \[[^\s()]+\])? (?:vs\.?|versus|and|to) /u.test(after);
}

/**
 * An all-capital section heading ("RESULTS", "MAIN OUTCOME MEASURES") starts at `start`, followed by a capitalised
 * word. Looks at most 80 characters ahead.
 */
function isCapitalHeadingAt(text: string, start: number): boolean {
  return /^\p{Lu}{4,}(?: \p{Lu}{2,})* \p{Lu}\p{Ll}/u.test(text.slice(start, start + 80));
}

/** The whitespace-delimited token that ends at `end` is a URL ("http://x.org/", "www.x.org/a/"). */
function isUrlBefore(text: string, end: number): boolean {
  let start = end;
  while (start > 0 && !/\s/u.test(text[start - 1] ?? '')) start -= 1;
  return /^\(?(?:https?:\/\/|www\.)/iu.test(text.slice(start, end));
}

/** Splits text into sentence strings; see {@link segmentSentences}. */
export function splitSentences(text: string, options: SplitSentencesOptions = {}): string[] {
  return segmentSentences(text, options).map((span) => span.text);
}
