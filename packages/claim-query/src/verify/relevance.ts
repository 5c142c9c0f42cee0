import { LUCENE_ENGLISH_STOP_WORDS, tokenizeWords } from '@factkit/core';

const STOP = new Set<string>(LUCENE_ENGLISH_STOP_WORDS);
/** Words that start a sentence in capitals without naming anything (not an entity). */
const FUNCTION_WORDS = new Set(['a', 'an', 'the', 'it', 'he', 'she', 'they', 'this', 'that', 'these', 'those', 'there', 'in', 'on', 'at', 'his', 'her', 'its', 'their', 'i', 'we', 'you']);

/** The claim's content words (lower case, stop words out) and its entity words (capitalised words, digits, CJK characters). */
export interface ClaimTerms {
  readonly content: ReadonlySet<string>;
  readonly entities: ReadonlySet<string>;
}

/** Content and entity words of a claim: what a snippet must share with it to be about the same thing. */
export function claimTerms(claim: string): ClaimTerms {
  const content = new Set(tokenizeWords(claim).filter((word) => !STOP.has(word)));
  const entities = new Set<string>();
  for (const word of tokenizeWords(claim, { lowercase: false })) {
    const lower = word.toLowerCase();
    if (FUNCTION_WORDS.has(lower) || STOP.has(lower)) continue;
    if (/^\p{Lu}/u.test(word) || /^\p{N}+$/u.test(word) || /\p{Script=Han}/u.test(word)) entities.add(lower);
  }
  return { content, entities };
}

/** How a snippet relates to the claim: share of the claim's content words it has, and whether it shares an entity word. */
export interface SnippetRelevance {
  /** Share of the claim's content words found in the snippet, 0..1 (0 for a claim without content words). */
  readonly overlap: number;
  /** True when the snippet names one of the claim's entities (a capitalised word, a number, a CJK character); for a claim without entities, when it has at least half its content words. */
  readonly relevant: boolean;
}

/** The relevance of a snippet to a claim (see {@link SnippetRelevance}). */
export function snippetRelevance(terms: ClaimTerms, snippet: string): SnippetRelevance {
  const words = new Set(tokenizeWords(snippet));
  const shared = [...terms.content].filter((word) => words.has(word)).length;
  const overlap = terms.content.size === 0 ? 0 : shared / terms.content.size;
  const relevant = terms.entities.size > 0 ? [...terms.entities].some((word) => words.has(word)) : overlap >= 0.5;
  return { overlap, relevant };
}
