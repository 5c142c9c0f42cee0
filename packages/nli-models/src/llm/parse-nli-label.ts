import type { NliLabel } from '@factkit/core';

/** What {@link parseNliLabel} read from a model answer. `label` is null when the answer is not one of the three labels. */
export interface ParsedNliLabel {
  readonly label: NliLabel | null;
  /** The answer as given. */
  readonly raw: string;
  /** Why no label could be read (only when `label` is null). */
  readonly problem?: string;
}

// Word stems that name a label, in English (with inflections: "entailed", "contradicts") and Chinese.
const LABEL_PATTERNS: ReadonlyArray<readonly [NliLabel, RegExp]> = [
  ['entailment', /\bentail(?:ment|ments|ed|s|ing)?\b|蕴含|蕴涵|entailment/giu],
  ['contradiction', /\bcontradict(?:ion|ions|ed|s|ing|ory)?\b|矛盾/giu],
  ['neutral', /\bneutral(?:ity)?\b|中立|中性/giu],
];

// A negation just before a label mention ("not entailed", "no contradiction") removes that mention.
const NEGATION_BEFORE = /(?:\b(?:not|no|non|neither|nor|never|isn't|is not|n't)\s*[-\s]?\s*|不是|非|不)$/iu;

interface Mention {
  readonly label: NliLabel;
  readonly index: number;
}

function mentions(text: string): Mention[] {
  const found: Mention[] = [];
  for (const [label, pattern] of LABEL_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const index = match.index ?? 0;
      const before = text.slice(Math.max(0, index - 12), index);
      if (NEGATION_BEFORE.test(before)) continue;
      found.push({ label, index });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * Reads an NLI label from a model's answer, tolerant of case, punctuation, markdown, a "Label:" prefix and extra
 * words ("The answer is: **Entailment**."). A pure function that never throws.
 * Rules: the first label word wins when the answer starts with it; otherwise the answer must name exactly one
 * distinct label (negated mentions such as "not entailed" are ignored). Anything else gives `label: null` and a `problem`.
 * @example parseNliLabel(' Entailment.') // { label: 'entailment', raw: ' Entailment.' }
 */
export function parseNliLabel(raw: string): ParsedNliLabel {
  const text = typeof raw === 'string' ? raw : String(raw ?? '');
  const cleaned = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[*_`#>"'“”‘’[\](){}]/gu, ' ')
    .replace(/^\s*(?:final\s+)?(?:label|answer|output|prediction|标签|答案)\s*[:：-]\s*/u, '')
    .trim();
  if (cleaned.length === 0) return { label: null, raw: text, problem: 'empty answer' };
  const found = mentions(cleaned);
  if (found.length === 0) return { label: null, raw: text, problem: 'answer names none of entailment, contradiction, neutral' };
  const first = found[0] as Mention;
  // The answer starts with a label ("Entailment. The premise says ..."): that is the answer.
  if (first.index === 0 || /^[\s\p{P}\p{S}\d]*$/u.test(cleaned.slice(0, first.index))) return { label: first.label, raw: text };
  const distinct = new Set(found.map((mention) => mention.label));
  if (distinct.size === 1) return { label: first.label, raw: text };
  return { label: null, raw: text, problem: `answer names several labels (${[...distinct].join(', ')})` };
}
