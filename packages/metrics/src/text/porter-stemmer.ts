// Porter stemmer in NLTK's default NLTK_EXTENSIONS mode (nltk/stem/porter.py), which is what both rouge-score
// (via nltk.stem.porter) and NLTK's METEOR use. Hand-written rather than taken from `natural` because natural's
// PorterStemmer follows the original 1980 algorithm (no irregular-forms pool, no 'ies'/'ied' length-4 rules,
// different step 1c/2 rules) and natural ≥ 8 pulls mongoose, pg and redis into the install.

const IRREGULAR: Readonly<Record<string, string>> = {
  sky: 'sky',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  news: 'news',
  innings: 'inning',
  inning: 'inning',
  outings: 'outing',
  outing: 'outing',
  cannings: 'canning',
  canning: 'canning',
  howe: 'howe',
  proceed: 'proceed',
  exceed: 'exceed',
  succeed: 'succeed',
};

function isConsonant(word: string, index: number): boolean {
  const letter = word[index];
  if (letter === 'a' || letter === 'e' || letter === 'i' || letter === 'o' || letter === 'u') return false;
  if (letter === 'y') return index === 0 ? true : !isConsonant(word, index - 1);
  return true;
}

/** Number of VC sequences, Porter's m. */
function measure(stem: string): number {
  let count = 0;
  let previousVowel = false;
  for (let index = 0; index < stem.length; index++) {
    const consonant = isConsonant(stem, index);
    if (consonant && previousVowel) count++;
    previousVowel = !consonant;
  }
  return count;
}

function containsVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index++) if (!isConsonant(stem, index)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  return word.length >= 2 && word[word.length - 1] === word[word.length - 2] && isConsonant(word, word.length - 1);
}

function endsCvc(word: string): boolean {
  const n = word.length;
  return (n >= 3 && isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !'wxy'.includes(word[n - 1]!)) || (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1));
}

type Rule = readonly [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix === '' ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

const positive = (stem: string) => measure(stem) > 0;
const measureAboveOne = (stem: string) => measure(stem) > 1;

function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return word.slice(0, -3) + 'ie';
  return applyRules(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith('ied')) return word.length === 4 ? word.slice(0, -3) + 'ie' : word.slice(0, -3) + 'i';
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + 'ee' : word;
  }
  let intermediate: string | undefined;
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix)) {
      const candidate = word.slice(0, -suffix.length);
      if (containsVowel(candidate)) {
        intermediate = candidate;
        break;
      }
    }
  }
  if (intermediate === undefined) return word;
  const last = intermediate[intermediate.length - 1] ?? '';
  return applyRules(intermediate, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !'lsz'.includes(last)],
    ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith('alli') && positive(word.slice(0, -4))) return step2(word.slice(0, -4) + 'al');
  return applyRules(word, [
    ['ational', 'ate', positive],
    ['tional', 'tion', positive],
    ['enci', 'ence', positive],
    ['anci', 'ance', positive],
    ['izer', 'ize', positive],
    ['bli', 'ble', positive],
    ['alli', 'al', positive],
    ['entli', 'ent', positive],
    ['eli', 'e', positive],
    ['ousli', 'ous', positive],
    ['ization', 'ize', positive],
    ['ation', 'ate', positive],
    ['ator', 'ate', positive],
    ['alism', 'al', positive],
    ['iveness', 'ive', positive],
    ['fulness', 'ful', positive],
    ['ousness', 'ous', positive],
    ['aliti', 'al', positive],
    ['iviti', 'ive', positive],
    ['biliti', 'ble', positive],
    ['fulli', 'ful', positive],
    ['logi', 'log', () => positive(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRules(word, [
    ['icate', 'ic', positive],
    ['ative', '', positive],
    ['alize', 'al', positive],
    ['iciti', 'ic', positive],
    ['ical', 'ic', positive],
    ['ful', '', positive],
    ['ness', '', positive],
  ]);
}

function step4(word: string): string {
  return applyRules(word, [
    ['al', '', measureAboveOne],
    ['ance', '', measureAboveOne],
    ['ence', '', measureAboveOne],
    ['er', '', measureAboveOne],
    ['ic', '', measureAboveOne],
    ['able', '', measureAboveOne],
    ['ible', '', measureAboveOne],
    ['ant', '', measureAboveOne],
    ['ement', '', measureAboveOne],
    ['ment', '', measureAboveOne],
    ['ent', '', measureAboveOne],
    ['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
    ['ou', '', measureAboveOne],
    ['ism', '', measureAboveOne],
    ['ate', '', measureAboveOne],
    ['iti', '', measureAboveOne],
    ['ous', '', measureAboveOne],
    ['ive', '', measureAboveOne],
    ['ize', '', measureAboveOne],
  ]);
}

function step5a(word: string): string {
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1) return stem;
    if (m === 1 && !endsCvc(stem)) return stem;
  }
  return word;
}

function step5b(word: string): string {
  return applyRules(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

/**
 * Porter stem of a word exactly as NLTK's `PorterStemmer()` (NLTK_EXTENSIONS mode) gives it: lowercased,
 * irregular forms (`dying` → `die`), words of ≤ 2 characters unchanged.
 * @example stemPorterNltk('running') // 'run'
 */
export function stemPorterNltk(word: string): string {
  const lower = word.toLowerCase();
  const irregular = Object.hasOwn(IRREGULAR, word) ? IRREGULAR[word] : undefined;
  if (irregular !== undefined) return irregular;
  if (word.length <= 2) return lower;
  let stem = step1a(lower);
  stem = step1b(stem);
  stem = step1c(stem);
  stem = step2(stem);
  stem = step3(stem);
  stem = step4(stem);
  stem = step5a(stem);
  return step5b(stem);
}
