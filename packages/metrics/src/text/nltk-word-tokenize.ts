import { InvalidArgumentError } from '@factkit/core';

// Port of NLTK 3.8 `word_tokenize`: sentence split, then NLTK's improved Treebank word tokenizer
// (nltk/tokenize/destructive.py, NLTKWordTokenizer) per sentence. Python's Unicode \w and \b are written out
// with \p{L}\p{N}_ because JavaScript's \b is ASCII-only.
// NLTK splits sentences with a trained Punkt model that cannot be shipped here; `splitSentencesPunktLike`
// approximates it (break after . ? ! followed by space, except after common abbreviations and initials). The
// sentence split only matters for periods that end a sentence inside the text; see docs/metrics.md for the
// measured agreement on the golden strings.

const WORD = '[\\p{L}\\p{N}_]';
const NOT_BEFORE_WORD = `(?<!${WORD})`;
const NOT_AFTER_WORD = `(?!${WORD})`;

type Substitution = readonly [RegExp, string];

const STARTING_QUOTES: readonly Substitution[] = [
  [/([«“‘„]|[`]+)/gu, ' $1 '],
  [/^"/u, '``'],
  [/(``)/gu, ' $1 '],
  [/([ ([{<])("|'{2})/gu, '$1 `` '],
  [new RegExp(`(')(?!re|ve|ll|m|t|s|d|n)(${WORD})${NOT_AFTER_WORD}`, 'giu'), '$1 $2'],
];

const PUNCTUATION: readonly Substitution[] = [
  [/([^.])(\.)([\])}>"'»”’ ]*)\s*$/u, '$1 $2 $3 '],
  [/([:,])([^\p{Nd}])/gu, ' $1 $2'],
  [/([:,])$/u, ' $1 '],
  [/\.{2,}/gu, ' $& '],
  [/[;@#$%&]/gu, ' $& '],
  [/([^.])(\.)([\])}>"']*)\s*$/u, '$1 $2$3 '],
  [/[?!]/gu, ' $& '],
  [/([^'])' /gu, "$1 ' "],
  [/[*]/gu, ' $& '],
];

const PARENS_BRACKETS: Substitution = [/[\][(){}<>]/gu, ' $& '];
const DOUBLE_DASHES: Substitution = [/--/gu, ' -- '];

const ENDING_QUOTES: readonly Substitution[] = [
  [/([»”’])/gu, ' $1 '],
  [/''/gu, " '' "],
  [/"/gu, " '' "],
  [/([^' ])('[sS]|'[mM]|'[dD]|') /gu, '$1 $2 '],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /gu, '$1 $2 '],
];

const CONTRACTIONS: readonly RegExp[] = [
  ...[
    ['can', 'not'],
    ['d', "'ye"],
    ['gim', 'me'],
    ['gon', 'na'],
    ['got', 'ta'],
    ['lem', 'me'],
    ['more', "'n"],
  ].map(([first, second]) => new RegExp(`${NOT_BEFORE_WORD}(${first})(${second})${NOT_AFTER_WORD}`, 'giu')),
  /(?<![\p{L}\p{N}_])(wan)(na)(?=\s)/giu,
  new RegExp(` ('t)(is)${NOT_AFTER_WORD}`, 'giu'),
  new RegExp(` ('t)(was)${NOT_AFTER_WORD}`, 'giu'),
];

function apply(text: string, [pattern, replacement]: Substitution): string {
  return text.replace(pattern, replacement);
}

/** NLTK's improved Treebank word tokenizer on one sentence (`NLTKWordTokenizer().tokenize`). */
export function tokenizeTreebankNltk(sentence: string): string[] {
  let text = sentence;
  for (const substitution of STARTING_QUOTES) text = apply(text, substitution);
  for (const substitution of PUNCTUATION) text = apply(text, substitution);
  text = apply(text, PARENS_BRACKETS);
  text = apply(text, DOUBLE_DASHES);
  text = ` ${text} `;
  for (const substitution of ENDING_QUOTES) text = apply(text, substitution);
  for (const pattern of CONTRACTIONS) text = text.replace(pattern, ' $1 $2 ');
  return text.split(/\s+/u).filter((token) => token.length > 0);
}

// Abbreviations of NLTK's English Punkt model that commonly occur (lower case, without the final period).
const PUNKT_ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'ft',
  'rev',
  'gen',
  'col',
  'lt',
  'capt',
  'sgt',
  'gov',
  'sen',
  'rep',
  'vs',
  'v',
  'etc',
  'e.g',
  'i.e',
  'a.m',
  'p.m',
  'vol',
  'pp',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'univ',
  'bros',
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
  'u.s.a',
  'ph.d',
  'd.c',
  'n.y',
  'l.a',
  'calif',
  'fla',
  'mass',
  'conn',
  'ariz',
  'ill',
  'minn',
  'wash',
  'tenn',
  'va',
  'pa',
  'ga',
  'la',
  'ore',
]);

/**
 * Splits text into sentences approximately as NLTK's English Punkt model does: after `.`, `?` or `!` (plus closing
 * quotes/brackets) followed by whitespace, except after a known abbreviation or a single-letter initial.
 */
export function splitSentencesPunktLike(text: string): string[] {
  const sentences: string[] = [];
  const boundary = /([.?!]+)(["'”’)\]}]*)(\s+)(?=\S)/gu;
  let start = 0;
  for (let match = boundary.exec(text); match !== null; match = boundary.exec(text)) {
    const end = match.index + match[1]!.length + match[2]!.length;
    if (match[1]!.endsWith('.') && match[1]!.length === 1) {
      const word = /([\p{L}\p{N}.]*)$/u.exec(text.slice(start, match.index))?.[1] ?? '';
      const lower = word.toLowerCase();
      if (PUNKT_ABBREVIATIONS.has(lower) || /^\p{L}$/u.test(word)) continue;
    }
    sentences.push(text.slice(start, end));
    start = match.index + match[0].length;
  }
  if (start < text.length) sentences.push(text.slice(start));
  return sentences.map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0);
}

export interface TokenizeWordsNltkOptions {
  /** Skip sentence splitting (NLTK `preserve_line=True`). @default false */
  preserveLine?: boolean;
}

/**
 * Word tokens as NLTK 3.8's `word_tokenize` gives them (Treebank conventions: `don't` → `do`, `n't`; `"` → `` `` ``/`''`).
 * Sentence splitting approximates Punkt (see `splitSentencesPunktLike`).
 * @example tokenizeWordsNltk("Don't stop.") // ['Do', "n't", 'stop', '.']
 */
export function tokenizeWordsNltk(text: string, options: TokenizeWordsNltkOptions = {}): string[] {
  if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'tokenizeWordsNltk', argument: 'text', message: 'must be a string' });
  const sentences = options.preserveLine ? [text] : splitSentencesPunktLike(text);
  return sentences.flatMap(tokenizeTreebankNltk);
}
