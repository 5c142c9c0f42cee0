// Rule-based splitting of compound English sentences into simple claims for the LLM-free drafter: coordinated clauses
// ("He was born in Ulm and died in Princeton") and non-restrictive "which/who" relatives ("Canberra, which is inland,
// is the capital"). Each part keeps the sentence's subject, so it can be checked alone.

// Auxiliaries and common irregular past forms that start a verb phrase (a regular past "-ed" word does too).
const VERBS = new Set(
  (
    'is are was were be been has have had do does did will would can could may might must shall should ' +
    'became become won wrote made took gave found began led ran grew went came saw built held lost sold bought ' +
    'brought taught thought told left met paid won became founded died lives lived works worked plays played contains ' +
    'includes included flows flowed lies lay stands stood remains remained serves served'
  ).split(' '),
);
const PRONOUN_SUBJECT = /^(it|he|she|they)\s+/i;

function startsWithVerb(text: string): boolean {
  const first = /^[A-Za-z'-]+/.exec(text)?.[0]?.toLowerCase();
  return first !== undefined && (VERBS.has(first) || (/ed$/.test(first) && first.length > 4));
}

/** The words before the sentence's first verb (its grammatical subject), or undefined when none is found. */
export function sentenceSubject(sentence: string): string | undefined {
  const words = sentence.split(/\s+/);
  for (let i = 1; i < words.length && i <= 8; i += 1) {
    if (startsWithVerb(words[i]!)) return words.slice(0, i).join(' ').replace(/,$/, '');
  }
  return undefined;
}

const sentenceCase = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const withPeriod = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);
const stripPeriod = (text: string): string => text.replace(/[.!?]+$/, '').trim();

/** The noun phrase a final ", which …" / ", who …" refers to: the trailing capitalised run, else the trailing "the/a …" phrase, else the last word. */
function antecedent(main: string): string {
  const capitalised = /((?:[A-Z][\w'-]*\s+)*[A-Z][\w'-]*)$/.exec(main)?.[1];
  if (capitalised && capitalised !== main) return capitalised;
  const determined = /\b((?:the|a|an)\s+(?:[\w'-]+\s+){0,3}[\w'-]+)$/i.exec(main)?.[1];
  return determined ?? /[\w'-]+$/.exec(main)?.[0] ?? main;
}

/**
 * Splits an English sentence into simple claims where a rule can: "A, which/who R, V." → "A V.", "A R."; "M, which/who R."
 * → "M.", "<antecedent> R."; "S V1 and V2." → "S V1.", "S V2."; "C1, and it/he/she/they C2." → "C1.", "<S> C2." with
 * the first clause's subject. Anything else is returned whole.
 * @example splitCompoundSentence('He was born in Ulm and died in Princeton.') // ['He was born in Ulm.', 'He died in Princeton.']
 */
export function splitCompoundSentence(sentence: string): string[] {
  const text = stripPeriod(sentence.trim());
  // Relative clause in the middle: "A, which R, V"
  const middle = /^(.+?),\s+(which|who)\s+([^,]+),\s+(.+)$/i.exec(text);
  if (middle && startsWithVerb(middle[4]!)) {
    const [, head, , relative, rest] = middle;
    return [...splitCompoundSentence(`${head} ${rest}`), withPeriod(`${head} ${relative}`)];
  }
  // Relative clause at the end: "M, which/who R"
  const final = /^(.+?),\s+(which|who)\s+(.+)$/i.exec(text);
  if (final && startsWithVerb(final[3]!)) {
    const [, main, , relative] = final;
    return [...splitCompoundSentence(main!), withPeriod(`${sentenceCase(antecedent(main!))} ${relative}`)];
  }
  // Coordinated clauses: "S V1 and V2" / "C1, and it C2"
  const coordinated = /^(.+?),?\s+and\s+(.+)$/i.exec(text);
  if (coordinated) {
    const [, first, second] = coordinated;
    const subject = sentenceSubject(first!);
    if (subject && startsWithVerb(second!)) return [withPeriod(first!), ...splitCompoundSentence(`${subject} ${second}`)];
    const pronoun = PRONOUN_SUBJECT.exec(second!);
    if (subject && pronoun) return [withPeriod(first!), ...splitCompoundSentence(`${subject} ${second!.slice(pronoun[0].length)}`)];
  }
  return [withPeriod(text)];
}
