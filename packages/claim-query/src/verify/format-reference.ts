import type { PromptLanguage } from '../prompts/prompts.js';
import type { Evidence } from '@factkit/core';

export interface FormatReferenceOptions {
  /** @default 'en' */
  readonly language?: PromptLanguage;
  /** Longest reference in characters (the authors cut the whole prompt at 5,000). @default 4000 */
  readonly maxChars?: number;
}

/**
 * The `{reference}` of the verifier prompt as the authors build it: `Query: <query>` (`查询: ` in Chinese), then the
 * snippets numbered `1. …`, one per line, cut before the first snippet that would pass `maxChars`.
 * @example formatReference('When was X built?', [{ text: 'X was built in 1586.' }])
 */
export function formatReference(query: string, snippets: readonly Pick<Evidence, 'text'>[], options: FormatReferenceOptions = {}): string {
  const { language = 'en', maxChars = 4000 } = options;
  let reference = `${language === 'zh' ? '查询: ' : 'Query: '}${query}`;
  for (const [index, snippet] of snippets.entries()) {
    const line = `\n${index + 1}. ${snippet.text.replace(/\s*\n\s*/g, ' ').trim()}`;
    if (reference.length + line.length > maxChars) break;
    reference += line;
  }
  return reference.trim();
}
