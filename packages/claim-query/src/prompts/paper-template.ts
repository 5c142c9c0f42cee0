import { createPromptTemplate, type PromptTemplate } from '@factkit/core';

/**
 * A core `PromptTemplate` over the paper's single-brace placeholders (`{question}`): core `createPromptTemplate` with
 * `placeholders: 'single-brace'`, filled in one pass so text that itself contains `{claim}` is never substituted
 * twice. Throws an InvalidArgumentError naming missing variables.
 * @example createPaperPromptTemplate(VERIFIER_PROMPT_EN).render({ claim, reference })
 */
export function createPaperPromptTemplate(template: string): PromptTemplate {
  return createPromptTemplate(template, { placeholders: 'single-brace' });
}

/** Renders a paper prompt once; see {@link createPaperPromptTemplate}. */
export function renderPaperPrompt(template: string, values: Readonly<Record<string, string | number>>): string {
  return createPaperPromptTemplate(template).render(values);
}
