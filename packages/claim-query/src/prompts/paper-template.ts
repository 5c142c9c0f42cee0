import { InvalidArgumentError, type PromptTemplate } from '@factkit/core';

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/**
 * A core `PromptTemplate` over the paper's single-brace placeholders (`{question}`), filled in one pass so text that
 * itself contains `{claim}` is never substituted twice. Throws an InvalidArgumentError naming missing variables.
 * @example createPaperPromptTemplate(VERIFIER_PROMPT_EN).render({ claim, reference })
 */
export function createPaperPromptTemplate(template: string): PromptTemplate {
  if (typeof template !== 'string') {
    throw new InvalidArgumentError({ where: 'createPaperPromptTemplate', argument: 'template', message: 'must be a string' });
  }
  const variables: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!variables.includes(name)) variables.push(name);
  }
  return {
    template,
    variables,
    render(values) {
      const missing = variables.filter((name) => values?.[name] === undefined || values[name] === null);
      if (missing.length > 0) {
        throw new InvalidArgumentError({
          where: 'createPaperPromptTemplate.render',
          argument: 'values',
          message: `is missing ${missing.map((m) => `"${m}"`).join(', ')} (template needs ${variables.map((v) => `"${v}"`).join(', ')})`,
        });
      }
      return template.replace(PLACEHOLDER, (_whole, name: string) => String(values[name]));
    },
  };
}

/** Renders a paper prompt once; see {@link createPaperPromptTemplate}. */
export function renderPaperPrompt(template: string, values: Readonly<Record<string, string | number>>): string {
  return createPaperPromptTemplate(template).render(values);
}
