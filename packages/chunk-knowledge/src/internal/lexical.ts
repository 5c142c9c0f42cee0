import { stemPorterNltk } from '@factkit/metrics';
import { findWordTokens } from '../keywords/rake.js';
import { RAKE_ENGLISH_STOP_WORDS } from '../keywords/stop-words.js';

/** Lower-cased, Porter-stemmed word tokens without stop words: the analysis of `CHUNK_KNOWLEDGE_ANALYZER`. */
export function lexicalTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of findWordTokens(text)) if (!RAKE_ENGLISH_STOP_WORDS.has(token.lower)) terms.push(stemPorterNltk(token.lower));
  return terms;
}
