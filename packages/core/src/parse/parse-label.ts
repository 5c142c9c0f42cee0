import { InvalidArgumentError } from '../errors/factkit-error.js';
import type { ItemProblem } from '../query.js';
import { dropReasoning, foldHomoglyphs, stripInvisible } from './reply-text.js';

export interface LabelParseOptions<L extends string> {
  /** Canonical labels, e.g. `NLI_LABELS` or `['Supported', 'Refuted', 'Not Enough Evidence']`. */
  readonly labels: readonly L[];
  /** Extra surface forms: `{ supports: 'Supported', 支持: 'Supported' }`. Inflections of one-word labels are built in. @default {} */
  readonly aliases?: Readonly<Record<string, L>>;
  /**
   * What "not X" means when that is unambiguous, e.g. `{ yes: 'no', no: 'yes' }` or `{ pass: 'fail', fail: 'pass' }`.
   * Without an entry a negated label is never read as any label. @default {}
   */
  readonly negations?: Readonly<Partial<Record<L, L>>>;
}

/**
 * The problem codes {@link parseLabel} reports: `empty-reply` (not text, or no letters or digits), `no-label` (none of
 * the labels named), `ambiguous-label` (several labels, or only negated or hedged ones).
 */
export type LabelProblemCode = 'empty-reply' | 'no-label' | 'ambiguous-label';

/** What {@link parseLabel} read. `label` is undefined when no single label could be read; `problems` says why. */
export interface LabelParse<L extends string> {
  readonly label?: L;
  /** Same as `label`, so a LabelParse is a core `ParseOutcome` and `parseLabel` can be a `runPromptedStep` parser. */
  readonly value?: L;
  readonly problems: readonly ItemProblem<LabelProblemCode>[];
}

/** A compiled label parser; see {@link createLabelParser}. */
export type LabelParser<L extends string> = (reply: string) => LabelParse<L>;

// ---------------------------------------------------------------------------------------------------------------
// Word lists (normalized: lower case, apostrophes removed, so "isn't" is "isnt").

const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'neither',
  'nor',
  'non',
  'none',
  'cannot',
  'cant',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'wasnt',
  'arent',
  'werent',
  'wont',
  'wouldnt',
  'couldnt',
  'shouldnt',
  'hasnt',
  'havent',
  'hadnt',
  'aint',
  'without',
  'lack',
  'lacks',
  'lacking',
  'nothing',
  'hardly',
  'barely',
  'fails',
  'fail',
  'failed',
  'neednt',
  'mustnt',
  '不',
  '非',
  '没',
  '沒',
  '无',
  '無',
  '未',
  '否',
  '别',
  '別',
]);
/** Two-word negators ("rather than X", "instead of X"): the second word, keyed to the first. */
const NEGATOR_PAIRS = new Map([
  ['than', new Set(['rather', 'other'])],
  ['of', new Set(['instead'])],
  ['from', new Set(['far'])],
]);
const HEDGES = new Set([
  'maybe',
  'perhaps',
  'possibly',
  'possible',
  'might',
  'may',
  'could',
  'either',
  'unclear',
  'uncertain',
  'unsure',
  'whether',
  'if',
  'between',
  'plausibly',
  'plausible',
  'arguably',
  'debatable',
  'partially',
  'partly',
  'somewhat',
  'mostly',
  'largely',
  'half',
  '可能',
  '或许',
  '也许',
]);
/** Words that end the scope of a negation or hedge reaching forward ("not X, but Y"). */
const SCOPE_BREAKERS = new Set(['but', 'however', 'yet', 'although', 'though', 'whereas', 'while', 'so', 'thus', 'therefore', 'hence', 'actually', 'rather', 'instead', 'because', 'since', '而是', '但', '但是', '所以', '因此']);
/** Words that join two labels into a list or a choice ("entailment or neutral", "A, B and C"). */
const LINKERS = new Set(['or', 'and', 'either', 'vs', 'versus', 'maybe', 'possibly', 'perhaps', 'between', 'also', '或', '或者', '和', '与', '還是', '还是']);
/** After a label, a verb that can carry a negation ("X is not correct", "X does not apply"). */
const COPULAS = new Set(['is', 'was', 'are', 'were', 'be', 'would', 'will', 'does', 'do', 'did', 'seems', 'seem', 'appears', 'should', 'can', 'could', 'may', 'might', 'must', 'has', 'have', 'its', 'label', 'answer']);
const NEGATED_COPULAS = new Set(['isnt', 'wasnt', 'arent', 'werent', 'wouldnt', 'wont', 'doesnt', 'dont', 'didnt', 'cannot', 'cant', 'shouldnt', 'couldnt', 'hasnt', 'havent', 'aint']);
const NEGATIVE_PREDICATES = new Set(['incorrect', 'wrong', 'inappropriate', 'inaccurate', 'invalid', 'ruled', 'excluded', 'eliminated', 'rejected', 'mistaken', 'unlikely', 'unwarranted', 'unjustified', 'inapplicable', 'false']);
const NEGATIVE_OBJECTS = new Set(['nothing', 'none', 'no', 'neither', 'never', 'nobody']);
const COLON_NEGATIVES = new Set(['no', 'not', 'false', 'none', 'incorrect', 'wrong', '否', '不']);
/** After "X is …": a rejection of X that is not a negation word ("Refuted is too strong", "X is overstated"). */
const POST_NEGATIVES = new Set([...NEGATIVE_PREDICATES, 'too', 'overstated', 'exaggerated', 'excessive', 'unsupported']);
/** Right after a label: it holds only in part ("Supported in part", "refuted partially"). */
const PARTIAL = new Set(['partially', 'partly', 'somewhat', 'mostly', 'largely']);
const HEDGE_PREDICATES = new Set(['possible', 'possibly', 'plausible', 'unclear', 'uncertain', 'debatable', 'arguable', 'conceivable']);
/** Words that announce the answer ("Final answer:", "Label -", "答案"). */
const ANCHORS = new Set([
  'answer',
  'label',
  'verdict',
  'prediction',
  'predicted',
  'classification',
  'conclusion',
  'judgement',
  'judgment',
  'decision',
  'output',
  'result',
  'category',
  'relation',
  'relationship',
  'response',
  'rating',
  'assessment',
  'choice',
  '案',
  '签',
  '論',
  '论',
  '果',
]);
/** Words that may stand between an anchor (or the reply start) and the label: "The final answer is: X". */
const FILLERS = new Set([
  'the',
  'a',
  'an',
  'final',
  'my',
  'our',
  'is',
  'be',
  'would',
  'will',
  'i',
  'it',
  'its',
  'this',
  'that',
  'so',
  'thus',
  'therefore',
  'hence',
  'overall',
  'correct',
  'best',
  'most',
  'appropriate',
  'likely',
  'probably',
  'say',
  'choose',
  'select',
  'pick',
  'go',
  'with',
  'relation',
  'here',
  'in',
  'summary',
  'short',
  'based',
  'on',
  'above',
  'analysis',
  'should',
  'answer',
  'label',
  'verdict',
  'prediction',
  'predicted',
  'output',
  'classification',
  'conclusion',
  'judgement',
  'judgment',
  'decision',
  'result',
  'category',
  'relationship',
  'response',
  'rating',
  'assessment',
  'choice',
  'clearly',
  'definitely',
  'of',
  'as',
  'for',
  'and',
  'between',
  'we',
  'can',
  'conclude',
  'classify',
  'label',
  'labeled',
  'labelled',
  'classified',
  '答',
  '案',
  '标',
  '签',
  '結',
  '结',
  '论',
  '論',
  '是',
  '为',
  '為',
  '最',
  '终',
  '終',
  '：',
]);

const PRE_WINDOW = 6;
const MAX_SKIPPED_PUNCTUATION = 2;

// ---------------------------------------------------------------------------------------------------------------
// Normalization and tokens.

const APOSTROPHES = /['’‘`´ʼ]/gu;

// Markdown strikethrough (~~X~~) is text the writer took back. Bounded, so the scan stays linear.
const STRUCK = /~~[^~\n]{0,200}~~/gu;

function normalize(text: string): string {
  return foldHomoglyphs(stripInvisible(text.normalize('NFKC')).toLowerCase())
    .replace(APOSTROPHES, '')
    .replace(STRUCK, ' ');
}

enum Kind {
  Word = 0,
  /** Sentence end (`.`, `;`, `!`, a newline): ends negation and hedge scope. */
  End = 1,
  /** `?`: ends a clause that only asks. */
  Question = 2,
  /** Any other punctuation or symbol (`,`, `:`, `-`, `/`, `*`, `#`, quotes): skipped. */
  Other = 3,
}

// Character classes for the tokenizer, cached per code point (a reply uses few distinct characters).
const SPACE = 1;
const WORD = 2;
const CJK = 3;
const END = 4;
const QUESTION = 5;
const OTHER = 6;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const SPACE_CHAR = /[\s\p{C}]/u;
const bmpClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, number>();

function classifyCodePoint(codePoint: number): number {
  if (codePoint === 0x0a || codePoint === 0x2e || codePoint === 0x3b || codePoint === 0x21 || codePoint === 0x3002 || codePoint === 0xff1b || codePoint === 0xff01) return END;
  if (codePoint === 0x3f || codePoint === 0xff1f) return QUESTION;
  const char = String.fromCodePoint(codePoint);
  if (CJK_CHAR.test(char)) return CJK;
  if (WORD_CHAR.test(char)) return WORD;
  if (SPACE_CHAR.test(char)) return SPACE;
  return OTHER;
}

function classOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    let cached = bmpClasses[codePoint] as number;
    if (cached === 0) {
      cached = classifyCodePoint(codePoint);
      bmpClasses[codePoint] = cached;
    }
    return cached;
  }
  let cached = astralClasses.get(codePoint);
  if (cached === undefined) {
    cached = classifyCodePoint(codePoint);
    astralClasses.set(codePoint, cached);
  }
  return cached;
}

interface Tokens {
  /** The normalized text the tokens point into. */
  readonly text: string;
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** The text of token `index` (made on demand: most tokens are never looked at as strings). */
function tokenText(tokens: Tokens, index: number): string {
  return index >= 0 && index < tokens.kinds.length ? tokens.text.slice(tokens.starts[index], tokens.ends[index]) : '';
}

/**
 * Splits normalized text into words (letters, marks, digits), single CJK characters, sentence ends (`.`, `;`, `!`, a
 * newline), question marks and runs of other punctuation (one token per run, so a million asterisks stay cheap).
 * One pass, no regular expression over the whole text; tokens are offsets into the text.
 */
function tokenize(normalized: string): Tokens {
  const length = normalized.length;
  const kinds = new Uint8Array(length);
  const starts = new Int32Array(length);
  const ends = new Int32Array(length);
  let count = 0;
  let index = 0;
  while (index < length) {
    const codePoint = normalized.codePointAt(index) as number;
    const width = codePoint > 0xffff ? 2 : 1;
    const kind = classOf(codePoint);
    if (kind === SPACE) {
      index += width;
      continue;
    }
    const start = index;
    index += width;
    if (kind === WORD || kind === OTHER) {
      while (index < length) {
        const nextPoint = normalized.codePointAt(index) as number;
        if (classOf(nextPoint) !== kind) break;
        index += nextPoint > 0xffff ? 2 : 1;
      }
    }
    kinds[count] = kind === WORD || kind === CJK ? Kind.Word : kind === END ? Kind.End : kind === QUESTION ? Kind.Question : Kind.Other;
    starts[count] = start;
    ends[count] = index;
    count += 1;
  }
  return { text: normalized, kinds: kinds.subarray(0, count), starts: starts.subarray(0, count), ends: ends.subarray(0, count) };
}

const SUFFIXES = ['ations', 'ation', 'ments', 'ment', 'ions', 'ion', 'ory', 'ity', 'ed', 'es', 's', 'e'];

/** A light stemmer so inflections of a one-word label match it: entailed/entails → entail, refutes/refuted → refut. */
const stemCache = new Map<string, string>();

function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const stemmed = stemUncached(word);
  if (stemCache.size > 50_000) stemCache.clear();
  stemCache.set(word, stemmed);
  return stemmed;
}

function stemUncached(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
}

// ---------------------------------------------------------------------------------------------------------------
// Matching label surface forms.

interface TrieNode<L> {
  readonly children: Map<string, TrieNode<L>>;
  label?: L;
}

interface Matcher<L extends string> {
  readonly trie: TrieNode<L>;
  /** First UTF-16 unit of every label's first word: words starting otherwise are skipped without building a string. */
  readonly firstUnits: ReadonlySet<number>;
  readonly negations: Readonly<Partial<Record<L, L>>>;
  readonly labels: readonly L[];
}

function compile<L extends string>(options: LabelParseOptions<L>): Matcher<L> {
  const where = 'parseLabel';
  if (!options || typeof options !== 'object') throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object with labels' });
  const { labels, aliases = {} } = options;
  const negations = (options.negations ?? {}) as Readonly<Partial<Record<L, L>>>;
  if (!Array.isArray(labels) || labels.length === 0) throw new InvalidArgumentError({ where, argument: 'labels', message: 'must be a non-empty array of strings' });
  const trie: TrieNode<L> = { children: new Map() };
  const add = (surface: string, label: L, argument: string) => {
    if (typeof surface !== 'string') throw new InvalidArgumentError({ where, argument, message: 'must be a string' });
    const tokens = tokenize(normalize(surface));
    const keys: string[] = [];
    tokens.kinds.forEach((kind, index) => {
      if (kind === Kind.Word) keys.push(stem(tokenText(tokens, index)));
    });
    if (keys.length === 0) throw new InvalidArgumentError({ where, argument, message: `"${surface}" has no letters or digits` });
    let node = trie;
    for (const key of keys) {
      let child = node.children.get(key);
      if (!child) {
        child = { children: new Map() };
        node.children.set(key, child);
      }
      node = child;
    }
    if (node.label !== undefined && node.label !== label) {
      throw new InvalidArgumentError({ where, argument, message: `"${surface}" would mean both "${node.label}" and "${label}"` });
    }
    node.label = label;
  };
  labels.forEach((label, index) => add(label, label, `labels[${index}]`));
  for (const [surface, label] of Object.entries(aliases)) {
    if (!labels.includes(label)) throw new InvalidArgumentError({ where, argument: `aliases.${surface}`, message: `maps to "${String(label)}", which is not one of the labels` });
    add(surface, label, `aliases.${surface}`);
  }
  for (const [label, meaning] of Object.entries(negations) as [L, L | undefined][]) {
    if (!labels.includes(label) || (meaning !== undefined && !labels.includes(meaning))) {
      throw new InvalidArgumentError({ where, argument: `negations.${label}`, message: 'must map a label to a label' });
    }
  }
  const firstUnits = new Set<number>([0x75 /* un… */, 0x6e /* non… */]);
  for (const key of trie.children.keys()) firstUnits.add(key.charCodeAt(0));
  return { trie, firstUnits, negations, labels };
}

interface Mention<L> {
  readonly label: L;
  /** First and last token of the mention. */
  readonly start: number;
  readonly end: number;
  negated: boolean;
  hedged: boolean;
  anchored: boolean;
}

function findMentions<L extends string>(tokens: Tokens, matcher: Matcher<L>): Mention<L>[] {
  const { kinds } = tokens;
  const textAt = (index: number) => tokenText(tokens, index);
  const found: Mention<L>[] = [];
  let index = 0;
  while (index < kinds.length) {
    if (kinds[index] !== Kind.Word || !matcher.firstUnits.has(tokens.text.charCodeAt(tokens.starts[index] as number))) {
      index += 1;
      continue;
    }
    // Longest label (or alias) starting here; punctuation between its words is skipped ("Conflicting Evidence/Cherrypicking").
    let node: TrieNode<L> | undefined = matcher.trie;
    let position = index;
    let best: { label: L; end: number } | undefined;
    while (node && position < kinds.length) {
      const child: TrieNode<L> | undefined = node.children.get(stem(textAt(position)));
      if (!child) break;
      node = child;
      if (node.label !== undefined) best = { label: node.label, end: position };
      if (node.children.size === 0) break;
      let next = position + 1;
      let skipped = 0;
      while (next < kinds.length && kinds[next] === Kind.Other && skipped < MAX_SKIPPED_PUNCTUATION) {
        next += 1;
        skipped += 1;
      }
      if (next >= kinds.length || kinds[next] !== Kind.Word) break;
      position = next;
    }
    if (best) {
      found.push({ label: best.label, start: index, end: best.end, negated: false, hedged: false, anchored: false });
      index = best.end + 1;
      continue;
    }
    // "unsupported", "nonentailment": a negated one-word label.
    const text = textAt(index);
    const prefix = text.startsWith('non') ? 3 : text.startsWith('un') ? 2 : 0;
    if (prefix > 0 && text.length - prefix >= 4) {
      const label = matcher.trie.children.get(stem(text.slice(prefix)))?.label;
      if (label !== undefined) found.push({ label, start: index, end: index, negated: true, hedged: false, anchored: false });
    }
    index += 1;
  }
  return found;
}

function isNegatorAt(tokens: Tokens, position: number): boolean {
  const word = tokenText(tokens, position);
  if (NEGATORS.has(word)) {
    // "No, the answer is X" / "No. X": an interjection answering something else, not a negation of X.
    if (word === 'no') {
      if (/^[,.!:\-–—]/u.test(tokenText(tokens, position + 1))) return false;
    }
    return true;
  }
  const firsts = NEGATOR_PAIRS.get(word);
  if (firsts) {
    for (let back = position - 1; back >= 0 && back >= position - 2; back -= 1) {
      if (tokens.kinds[back] === Kind.Word) return firsts.has(tokenText(tokens, back));
    }
  }
  return false;
}

/** Marks negation, hedging and answer anchors on each mention. One bounded look-around per mention: linear time. */
function annotate<L extends string>(tokens: Tokens, mentions: Mention<L>[]): void {
  const scan = annotationScan(tokens, mentions);
  for (const mention of mentions) {
    markAsking(scan, mention);
    lookBack(scan, mention);
    lookAhead(scan, mention);
    mention.anchored = isAnchored(scan, mention);
  }
  markChoices(scan, mentions);
}

/** What {@link annotate}'s steps read: the tokens, the clause of every token and how it ends, the mention tokens. */
interface AnnotationScan {
  readonly tokens: Tokens;
  readonly kinds: Uint8Array;
  readonly textAt: (index: number) => string;
  /** Clause number of every token. */
  readonly clause: Uint32Array;
  /** How each clause ends (End or Question). */
  readonly clauseEnds: readonly Kind[];
  /** Whether a token belongs to a mention. */
  readonly inMention: (index: number) => boolean;
}

function annotationScan<L extends string>(tokens: Tokens, mentions: readonly Mention<L>[]): AnnotationScan {
  const { kinds } = tokens;
  const clause = new Uint32Array(kinds.length);
  const clauseEnds: Kind[] = [];
  let current = 0;
  for (let index = 0; index < kinds.length; index += 1) {
    clause[index] = current;
    if (kinds[index] === Kind.End || kinds[index] === Kind.Question) {
      clauseEnds[current] = kinds[index] as Kind;
      current += 1;
    }
  }
  const inMention = new Uint8Array(kinds.length);
  for (const mention of mentions) inMention.fill(1, mention.start, mention.end + 1);
  return { tokens, kinds, textAt: (index) => tokenText(tokens, index), clause, clauseEnds, inMention: (index) => inMention[index] === 1 };
}

/** A clause that asks ("Is it entailment?") asserts nothing; nor does a purpose clause ("evidence to refute"). */
function markAsking<L extends string>(scan: AnnotationScan, mention: Mention<L>): void {
  const { kinds, textAt, clause, clauseEnds } = scan;
  if (clauseEnds[clause[mention.start] as number] === Kind.Question) mention.hedged = true;
  let previous = mention.start - 1;
  while (previous >= 0 && kinds[previous] === Kind.Other) previous -= 1;
  if (previous >= 0 && textAt(previous) === 'to') mention.hedged = true;
}

/** Negators and hedges before the mention in its clause, up to PRE_WINDOW words, stopping at another label or a "but". */
function lookBack<L extends string>(scan: AnnotationScan, mention: Mention<L>): void {
  const { tokens, kinds, textAt, inMention } = scan;
  let seen = 0;
  for (let back = mention.start - 1; back >= 0 && seen < PRE_WINDOW; back -= 1) {
    const kind = kinds[back];
    if (kind === Kind.End || kind === Kind.Question) break;
    if (kind === Kind.Other) continue;
    if (inMention(back)) break;
    const word = textAt(back);
    if (SCOPE_BREAKERS.has(word) && !NEGATOR_PAIRS.get(textAt(back + 1))?.has(word)) break;
    // "not X", and "wrong to call it X", "incorrect that it is X".
    if (isNegatorAt(tokens, back) || NEGATIVE_PREDICATES.has(word)) mention.negated = true;
    else if (HEDGES.has(word)) mention.hedged = true;
    seen += 1;
  }
}

/** After the mention: "X is not correct", "X isn't right", "X is wrong", "X does not apply", "X is possible", "X: no". */
function lookAhead<L extends string>(scan: AnnotationScan, mention: Mention<L>): void {
  const { kinds, textAt, inMention } = scan;
  let after = mention.end + 1;
  while (after < kinds.length && kinds[after] === Kind.Other && !/[,:：]/u.test(textAt(after))) after += 1;
  // "Supported: no", "Entailment - false": a label answered in the negative (checked on the token right after it).
  const separator = kinds[mention.end + 1] === Kind.Other ? textAt(mention.end + 1).replace(/[*_`"'“”]/gu, '') : '';
  if (/^[:=\-–—：]$/u.test(separator)) {
    let answer = mention.end + 2;
    while (answer < kinds.length && kinds[answer] === Kind.Other) answer += 1;
    if (kinds[answer] === Kind.Word && !inMention(answer) && COLON_NEGATIVES.has(textAt(answer))) mention.negated = true;
  }
  const first = kinds[after] === Kind.Word && !inMention(after) ? textAt(after) : undefined;
  if (first === undefined) return;
  // "contradicts nothing", "supports none of it": a label verb with a negative object.
  if (NEGATED_COPULAS.has(first) || NEGATIVE_OBJECTS.has(first)) mention.negated = true;
  else if (PARTIAL.has(first) || (first === 'in' && textAt(after + 1) === 'part') || (first === 'to' && textAt(after + 1) === 'some')) mention.hedged = true;
  else if (COPULAS.has(first)) lookPastCopula(scan, mention, after + 1);
}

/** "X is not …", "X is possible": a negator or hedge predicate within three words after a copula. */
function lookPastCopula<L extends string>(scan: AnnotationScan, mention: Mention<L>, from: number): void {
  const { kinds, textAt, inMention } = scan;
  let words3 = 0;
  for (let ahead = from; ahead < kinds.length && words3 < 3; ahead += 1) {
    if (kinds[ahead] === Kind.End || kinds[ahead] === Kind.Question || inMention(ahead)) break;
    if (kinds[ahead] !== Kind.Word) continue;
    const word = textAt(ahead);
    if (NEGATORS.has(word) || POST_NEGATIVES.has(word)) {
      mention.negated = true;
      return;
    }
    if (HEDGE_PREDICATES.has(word)) {
      mention.hedged = true;
      return;
    }
    words3 += 1;
  }
}

/**
 * Anchored: only fillers (and an answer word such as "Answer:" or "Final label -") stand before it, back to the
 * reply start, an answer word, or a line break after an answer word.
 */
function isAnchored<L extends string>(scan: AnnotationScan, mention: Mention<L>): boolean {
  const { kinds, textAt, inMention } = scan;
  let anchorSeen = false;
  let steps = 0;
  for (let back = mention.start - 1; back >= 0; back -= 1) {
    const kind = kinds[back];
    if (kind === Kind.Other) continue;
    const word = textAt(back);
    if (kind === Kind.End || kind === Kind.Question) {
      if (word === '\n' && (anchorSeen || steps === 0)) continue;
      return anchorSeen;
    }
    if (inMention(back) || !FILLERS.has(word) || steps >= PRE_WINDOW * 2) return anchorSeen;
    if (ANCHORS.has(word)) anchorSeen = true;
    steps += 1;
  }
  return true;
}

/**
 * "X or Y", "X, Y and Z", "X/Y": a choice or a list, not an answer (unless both name the same label). A linker word
 * ("or", "and", "vs") always joins them, even under a negation ("cannot tell whether X or Y"); bare punctuation
 * (a comma, a slash) joins them only when neither is negated ("not X, Y" reads as Y). A colon never joins.
 */
function markChoices<L extends string>(scan: AnnotationScan, mentions: readonly Mention<L>[]): void {
  const { kinds, textAt, clause } = scan;
  mentions.forEach((mention, order) => {
    const next = mentions[order + 1];
    if (!next || next.label === mention.label || clause[next.start] !== clause[mention.end]) return;
    let linked = true;
    let linkerWord = false;
    let punctuation = false;
    for (let between = mention.end + 1; between < next.start; between += 1) {
      const text = textAt(between);
      if (kinds[between] === Kind.Other) {
        if (/[,/|、，&]/u.test(text)) punctuation = true;
        continue;
      }
      if (kinds[between] !== Kind.Word || !LINKERS.has(text)) {
        linked = false;
        break;
      }
      linkerWord = true;
    }
    const adjacent = next.start === mention.end + 1;
    if (linked && (linkerWord || ((punctuation || adjacent) && !mention.negated && !next.negated))) {
      mention.hedged = true;
      next.hedged = true;
    }
  });
}

function describe(labels: Iterable<string>): string {
  return [...new Set(labels)].map((label) => `"${label}"`).join(', ');
}

const found = <L extends string>(label: L): LabelParse<L> => ({ label, value: label, problems: [] });

function decide<L extends string>(mentions: readonly Mention<L>[], matcher: Matcher<L>): LabelParse<L> {
  const positive = mentions.filter((mention) => !mention.negated && !mention.hedged);
  const anchored = new Set(positive.filter((mention) => mention.anchored).map((mention) => mention.label));
  if (anchored.size === 1) return found([...anchored][0] as L);
  if (anchored.size > 1) {
    return { problems: [{ code: 'ambiguous-label', message: `the reply gives several labels as its answer (${describe(anchored)})` }] };
  }
  const distinct = new Set(positive.map((mention) => mention.label));
  if (distinct.size === 1) return found([...distinct][0] as L);
  if (distinct.size > 1) return { problems: [{ code: 'ambiguous-label', message: `the reply names several labels (${describe(distinct)})` }] };
  const implied = new Set<L>();
  let unresolved = false;
  for (const mention of mentions) {
    if (mention.hedged) {
      unresolved = true;
      continue;
    }
    const meaning = matcher.negations[mention.label];
    if (meaning === undefined) unresolved = true;
    else implied.add(meaning);
  }
  if (implied.size === 1 && !unresolved) return found([...implied][0] as L);
  if (mentions.length > 0) {
    const negated = mentions.filter((mention) => mention.negated).map((mention) => mention.label);
    const hedged = mentions.filter((mention) => mention.hedged && !mention.negated).map((mention) => mention.label);
    const parts = [negated.length > 0 ? `negates ${describe(negated)}` : '', hedged.length > 0 ? `hedges between or over ${describe(hedged)}` : ''].filter(Boolean);
    return { problems: [{ code: 'ambiguous-label', message: `the reply ${parts.join(' and ')} without committing to one label` }] };
  }
  return { problems: [{ code: 'no-label', message: `the reply names none of the labels (${describe(matcher.labels)})` }] };
}

/** Clause-initial words and phrases that retract what came before ("Entailment. Wait, no: neutral."). */
const CORRECTIONS: readonly (readonly string[])[] = [
  ['wait'],
  ['actually'],
  ['correction'],
  ['oops'],
  ['scratch', 'that'],
  ['on', 'second', 'thought'],
  ['on', 'second', 'thoughts'],
  ['on', 'reflection'],
  ['i', 'take', 'that', 'back'],
  ['let', 'me', 'correct'],
  ['i', 'was', 'wrong'],
  ['i', 'mean'],
];

/**
 * The mentions after the reply's last self-correction, when a correction is followed by a committed label: an
 * explicit later correction wins over the label it retracts. A correction counts where a clause starts (after a
 * sentence end, the reply start or a label). Otherwise every mention. One pass over the tokens: linear time.
 */
function afterLastCorrection<L extends string>(tokens: Tokens, mentions: readonly Mention<L>[]): readonly Mention<L>[] {
  const { kinds } = tokens;
  let lastMention = -1;
  const mentionEnd = new Set(mentions.map((mention) => mention.end));
  let corrected = -1;
  let previous = -1; // the last token that is not punctuation
  for (let index = 0; index < kinds.length; index += 1) {
    if (kinds[index] === Kind.Other) continue;
    const clauseStart = previous < 0 || kinds[previous] === Kind.End || kinds[previous] === Kind.Question || mentionEnd.has(previous);
    if (clauseStart && kinds[index] === Kind.Word) {
      for (const phrase of CORRECTIONS) {
        let position = index;
        let matched = 0;
        while (matched < phrase.length && position < kinds.length) {
          if (kinds[position] === Kind.Other) {
            position += 1;
            continue;
          }
          if (kinds[position] !== Kind.Word || tokenText(tokens, position) !== phrase[matched]) break;
          matched += 1;
          position += 1;
        }
        if (matched === phrase.length) {
          corrected = index;
          break;
        }
      }
    }
    if (mentionEnd.has(index)) lastMention = index;
    previous = index;
  }
  if (corrected < 0 || lastMention < corrected) return mentions;
  const later = mentions.filter((mention) => mention.start > corrected);
  // A committed label after the correction replaces the earlier ones; a hedge after it ("Actually, it could be X or
  // Y") retracts them without committing; a correction followed only by negations retracts the labels it negates
  // ("X. Wait, I was wrong: it is not X") and keeps the others ("X. Wait, it is not Y either").
  if (later.some((mention) => !mention.negated)) return later;
  const negatedLater = new Set(later.map((mention) => mention.label));
  return mentions.filter((mention) => mention.start > corrected || !negatedLater.has(mention.label));
}

/**
 * Compiles the label options once and returns a parser for many replies (what {@link parseLabel} does per call).
 * @throws InvalidArgumentError for empty labels, an alias to an unknown label, or a surface form meaning two labels.
 */
export function createLabelParser<L extends string>(options: LabelParseOptions<L>): LabelParser<L> {
  const matcher = compile(options);
  return (reply) => {
    if (typeof reply !== 'string') return { problems: [{ code: 'empty-reply', message: `the reply is not text (got ${reply === null ? 'null' : typeof reply})` }] };
    const tokens = tokenize(normalize(dropReasoning(reply)));
    if (!tokens.kinds.includes(Kind.Word)) return { problems: [{ code: 'empty-reply', message: 'the reply has no letters or digits' }] };
    const mentions = findMentions(tokens, matcher);
    annotate(tokens, mentions);
    return decide(afterLastCorrection(tokens, mentions), matcher);
  };
}

/**
 * Reads one label from an "answer with one of these labels" reply (NLI labels, verdicts, support judgements,
 * pass/fail criteria). Tolerates case, Markdown (bold, headings, quotes, code fences), prefixes ("Label:", "Answer -",
 * "The answer is"), inflections ("entailed", "refutes"), trailing prose, zero-width and bidi characters and Latin
 * look-alike letters. A label that is negated ("not supported", "cannot be entailed", "NOT REFUTES",
 * "Entailment is not correct here; it is neutral") or hedged ("entailment or neutral", "possibly supported") is never
 * read as that label: the reply is read right where it is unambiguous (the last example gives neutral), otherwise
 * the result has an `ambiguous-label` problem. An answer word ("Answer:", "Final label -") or the reply's start marks
 * the label that wins over others named later in the prose. An explicit later self-correction ("Entailment. Wait, no:
 * neutral.", "Supported. Actually, refuted.", "On second thought, neutral") retracts what came before it.
 *
 * Pure, never throws on any reply, linear time in the reply length (a 1 MB reply takes milliseconds).
 * @throws InvalidArgumentError for bad `options` (not for a bad reply).
 * @example parseLabel('**Label:** Entailment.', { labels: NLI_LABELS }) // { label: 'entailment', problems: [] }
 */
export function parseLabel<L extends string>(reply: string, options: LabelParseOptions<L>): LabelParse<L> {
  return createLabelParser(options)(reply);
}
