/**
 * The original Porter (1980) stemmer exactly as Lucene's `PorterStemFilter` applies it
 * (`org.apache.lucene.analysis.en.PorterStemmer`, itself Martin Porter's reference implementation
 * with its three published departures: `-bli → -ble` instead of `-abli → -able`, the extra
 * `-logi → -log` rule, and words of length ≤ 2 left alone).
 *
 * Written here instead of using `natural`'s `PorterStemmer` because that one differs from
 * Lucene's on real words (it lower-cases and strips non-letters itself, and applies rule
 * variants of its own), and our BM25 numbers must be comparable to Anserini's, which index
 * with Lucene. `porter-stemmer.test.ts` lists where the two agree and where they don't.
 */
export function stemPorterLucene(word: string): string {
  const length = word.length;
  if (length <= 2) return word;
  return new PorterState(word).run();
}

class PorterState {
  private readonly b: string[];
  /** End of the current word (inclusive). */
  private k: number;
  /** End of the stem once a suffix matched (inclusive). */
  private j = 0;

  constructor(word: string) {
    this.b = Array.from({ length: word.length }, (_, index) => word[index] as string);
    this.k = word.length - 1;
  }

  run(): string {
    this.step1();
    this.step2();
    this.step3();
    this.step4();
    this.step5();
    this.step6();
    return this.b.slice(0, this.k + 1).join('');
  }

  private isConsonant(index: number): boolean {
    switch (this.b[index]) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
        return false;
      case 'y':
        return index === 0 ? true : !this.isConsonant(index - 1);
      default:
        return true;
    }
  }

  /** Number of consonant-vowel sequences in b[0..j]. */
  private measure(): number {
    let count = 0;
    let index = 0;
    const end = this.j;
    for (;;) {
      if (index > end) return count;
      if (!this.isConsonant(index)) break;
      index++;
    }
    index++;
    for (;;) {
      for (;;) {
        if (index > end) return count;
        if (this.isConsonant(index)) break;
        index++;
      }
      index++;
      count++;
      for (;;) {
        if (index > end) return count;
        if (!this.isConsonant(index)) break;
        index++;
      }
      index++;
    }
  }

  private vowelInStem(): boolean {
    for (let index = 0; index <= this.j; index++) if (!this.isConsonant(index)) return true;
    return false;
  }

  private doubleConsonant(index: number): boolean {
    if (index < 1) return false;
    if (this.b[index] !== this.b[index - 1]) return false;
    return this.isConsonant(index);
  }

  private consonantVowelConsonant(index: number): boolean {
    if (index < 2 || !this.isConsonant(index) || this.isConsonant(index - 1) || !this.isConsonant(index - 2)) return false;
    const ch = this.b[index];
    return !(ch === 'w' || ch === 'x' || ch === 'y');
  }

  private ends(suffix: string): boolean {
    const length = suffix.length;
    const offset = this.k - length + 1;
    if (offset < 0) return false;
    for (let index = 0; index < length; index++) if (this.b[offset + index] !== suffix[index]) return false;
    this.j = this.k - length;
    return true;
  }

  private setTo(replacement: string): void {
    const offset = this.j + 1;
    for (let index = 0; index < replacement.length; index++) this.b[offset + index] = replacement[index] as string;
    this.k = this.j + replacement.length;
  }

  private replaceIfMeasured(replacement: string): void {
    if (this.measure() > 0) this.setTo(replacement);
  }

  /** Plurals and -ed / -ing. */
  private step1(): void {
    if (this.b[this.k] === 's') {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setTo('i');
      else if (this.b[this.k - 1] !== 's') this.k--;
    }
    if (this.ends('eed')) {
      if (this.measure() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends('at')) this.setTo('ate');
      else if (this.ends('bl')) this.setTo('ble');
      else if (this.ends('iz')) this.setTo('ize');
      else if (this.doubleConsonant(this.k)) {
        const ch = this.b[this.k];
        this.k--;
        if (ch === 'l' || ch === 's' || ch === 'z') this.k++;
      } else {
        this.j = this.k;
        if (this.measure() === 1 && this.consonantVowelConsonant(this.k)) this.setTo('e');
      }
    }
  }

  /** Terminal y → i when the stem has another vowel. */
  private step2(): void {
    if (this.ends('y') && this.vowelInStem()) this.b[this.k] = 'i';
  }

  /** Double suffixes → single ones. */
  private step3(): void {
    if (this.k === 0) return;
    switch (this.b[this.k - 1]) {
      case 'a':
        if (this.ends('ational')) return this.replaceIfMeasured('ate');
        if (this.ends('tional')) return this.replaceIfMeasured('tion');
        return;
      case 'c':
        if (this.ends('enci')) return this.replaceIfMeasured('ence');
        if (this.ends('anci')) return this.replaceIfMeasured('ance');
        return;
      case 'e':
        if (this.ends('izer')) return this.replaceIfMeasured('ize');
        return;
      case 'l':
        if (this.ends('bli')) return this.replaceIfMeasured('ble');
        if (this.ends('alli')) return this.replaceIfMeasured('al');
        if (this.ends('entli')) return this.replaceIfMeasured('ent');
        if (this.ends('eli')) return this.replaceIfMeasured('e');
        if (this.ends('ousli')) return this.replaceIfMeasured('ous');
        return;
      case 'o':
        if (this.ends('ization')) return this.replaceIfMeasured('ize');
        if (this.ends('ation')) return this.replaceIfMeasured('ate');
        if (this.ends('ator')) return this.replaceIfMeasured('ate');
        return;
      case 's':
        if (this.ends('alism')) return this.replaceIfMeasured('al');
        if (this.ends('iveness')) return this.replaceIfMeasured('ive');
        if (this.ends('fulness')) return this.replaceIfMeasured('ful');
        if (this.ends('ousness')) return this.replaceIfMeasured('ous');
        return;
      case 't':
        if (this.ends('aliti')) return this.replaceIfMeasured('al');
        if (this.ends('iviti')) return this.replaceIfMeasured('ive');
        if (this.ends('biliti')) return this.replaceIfMeasured('ble');
        return;
      case 'g':
        if (this.ends('logi')) return this.replaceIfMeasured('log');
        return;
      default:
        return;
    }
  }

  /** -ic-, -full, -ness etc. */
  private step4(): void {
    switch (this.b[this.k]) {
      case 'e':
        if (this.ends('icate')) return this.replaceIfMeasured('ic');
        if (this.ends('ative')) return this.replaceIfMeasured('');
        if (this.ends('alize')) return this.replaceIfMeasured('al');
        return;
      case 'i':
        if (this.ends('iciti')) return this.replaceIfMeasured('ic');
        return;
      case 'l':
        if (this.ends('ical')) return this.replaceIfMeasured('ic');
        if (this.ends('ful')) return this.replaceIfMeasured('');
        return;
      case 's':
        if (this.ends('ness')) return this.replaceIfMeasured('');
        return;
      default:
        return;
    }
  }

  /** -ant, -ence etc. in context <c>vcvc<v>. */
  private step5(): void {
    if (this.k === 0) return;
    let matched = false;
    switch (this.b[this.k - 1]) {
      case 'a':
        matched = this.ends('al');
        break;
      case 'c':
        matched = this.ends('ance') || this.ends('ence');
        break;
      case 'e':
        matched = this.ends('er');
        break;
      case 'i':
        matched = this.ends('ic');
        break;
      case 'l':
        matched = this.ends('able') || this.ends('ible');
        break;
      case 'n':
        matched = this.ends('ant') || this.ends('ement') || this.ends('ment') || this.ends('ent');
        break;
      case 'o':
        matched = (this.ends('ion') && this.j >= 0 && (this.b[this.j] === 's' || this.b[this.j] === 't')) || this.ends('ou');
        break;
      case 's':
        matched = this.ends('ism');
        break;
      case 't':
        matched = this.ends('ate') || this.ends('iti');
        break;
      case 'u':
        matched = this.ends('ous');
        break;
      case 'v':
        matched = this.ends('ive');
        break;
      case 'z':
        matched = this.ends('ize');
        break;
      default:
        matched = false;
    }
    if (matched && this.measure() > 1) this.k = this.j;
  }

  /** Final -e when m() > 1, and -ll → -l. */
  private step6(): void {
    this.j = this.k;
    if (this.b[this.k] === 'e') {
      const measure = this.measure();
      if (measure > 1 || (measure === 1 && !this.consonantVowelConsonant(this.k - 1))) this.k--;
    }
    if (this.b[this.k] === 'l' && this.doubleConsonant(this.k) && this.measure() > 1) this.k--;
  }
}
