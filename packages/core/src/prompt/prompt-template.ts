import { InvalidArgumentError } from '../errors/factkit-error.js';

/** A prompt with `{{name}}` placeholders. */
export interface PromptTemplate<Name extends string = string> {
  readonly template: string;
  /** Placeholder names in order of first appearance. */
  readonly variables: readonly Name[];
  render(values: Readonly<Record<Name, string | number>>): string;
}

const DOUBLE_BRACE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** `{name}` placeholders as printed in papers (lower case and underscores only, so `{"a": 1}` stays literal). */
const SINGLE_BRACE = /\{([a-z_]+)\}/g;

export interface PromptTemplateOptions {
  /**
   * Placeholder syntax: `{{name}}` (double braces, so JSON and code in prompts stay literal) or `{name}` as papers
   * print their prompts (e.g. JointCQ's tables). Values are filled in one pass, never substituted twice.
   * @default 'double-brace'
   */
  readonly placeholders?: 'double-brace' | 'single-brace';
}

/**
 * Creates a prompt template with `{{name}}` placeholders (double braces, so JSON and code in prompts stay literal).
 * `render` throws an InvalidArgumentError naming every missing variable.
 * @example createPromptTemplate('Claim: {{claim}}').render({ claim: 'The sky is blue.' })
 */
export function createPromptTemplate<Name extends string = string>(template: string, options: PromptTemplateOptions = {}): PromptTemplate<Name> {
  if (typeof template !== 'string') {
    throw new InvalidArgumentError({ where: 'createPromptTemplate', argument: 'template', message: 'must be a string' });
  }
  const { placeholders = 'double-brace' } = options;
  if (placeholders !== 'double-brace' && placeholders !== 'single-brace') {
    throw new InvalidArgumentError({ where: 'createPromptTemplate', argument: 'placeholders', message: `must be 'double-brace' or 'single-brace' (got ${String(placeholders)})` });
  }
  const placeholder = placeholders === 'single-brace' ? SINGLE_BRACE : DOUBLE_BRACE;
  const variables: Name[] = [];
  for (const match of template.matchAll(placeholder)) {
    const name = match[1] as Name;
    if (!variables.includes(name)) variables.push(name);
  }
  return {
    template,
    variables,
    render(values) {
      const missing = variables.filter((name) => values?.[name] === undefined || values[name] === null);
      if (missing.length > 0) {
        throw new InvalidArgumentError({
          where: 'PromptTemplate.render',
          argument: 'values',
          message: `is missing variable${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} (template needs ${variables.map((v) => `"${v}"`).join(', ')})`,
        });
      }
      return template.replace(placeholder, (_whole, name: string) => String(values[name as Name]));
    },
  };
}

/** Renders a template string once; see {@link createPromptTemplate}. */
export function renderPrompt(template: string, values: Readonly<Record<string, string | number>>): string {
  return createPromptTemplate(template).render(values);
}
