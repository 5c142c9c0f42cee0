import { describe, expect, it } from 'vitest';
import { FactkitError, InvalidArgumentError } from '../errors/factkit-error.js';
import { createPromptTemplate, renderPrompt } from './prompt-template.js';

describe('createPromptTemplate', () => {
  it('lists variables and renders them, leaving single braces (JSON) alone', () => {
    const template = createPromptTemplate('Claim: {{claim}}\nEvidence: {{ evidence }}\nAnswer as {"label": ...} for {{claim}}');
    expect(template.variables).toEqual(['claim', 'evidence']);
    expect(template.render({ claim: 'C', evidence: 'E' })).toBe('Claim: C\nEvidence: E\nAnswer as {"label": ...} for C');
  });
  it('does not re-expand placeholders inside values', () => {
    expect(renderPrompt('{{a}} {{b}}', { a: '{{b}}', b: 'x' })).toBe('{{b}} x');
  });
  it('fails with a typed error naming every missing variable', () => {
    const template = createPromptTemplate('{{claim}} {{evidence}} {{n}}');
    let caught: unknown;
    try {
      template.render({ claim: 'x' } as never);
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught)).toBe(true);
    expect(FactkitError.isInstance(caught) && caught.code).toBe('invalid_argument');
    expect(String((caught as Error).message)).toMatch(/"evidence", "n"/);
  });
  it('renders numbers and zero', () => {
    expect(renderPrompt('k={{k}}', { k: 0 })).toBe('k=0');
  });
});

describe("createPromptTemplate with single-brace placeholders (papers' prompts)", () => {
  it('fills {name} in one pass, keeps JSON literal, and names missing variables', () => {
    const template = createPromptTemplate('Claim: {claim}\nJSON: {"a": 1, "B": 2}', { placeholders: 'single-brace' });
    expect(template.variables).toEqual(['claim']);
    // A value that itself contains a placeholder is not substituted again.
    expect(template.render({ claim: 'says {claim}' })).toBe('Claim: says {claim}\nJSON: {"a": 1, "B": 2}');
    expect(() => template.render({} as Record<'claim', string>)).toThrow(/"claim"/);
    expect(() => createPromptTemplate('x', { placeholders: 'angle' as 'single-brace' })).toThrow(/placeholders/);
  });
});
