import { describe, expect, it } from 'vitest';
import type { CoreProblemCode, JsonLineProblemCode, LabelProblemCode, ListItemsProblemCode, StepProblemCode } from '../index.js';
import { parseJsonLines, parseLabel, parseListItems, runPromptedStep } from '../index.js';
import type { LanguageModel } from '../language-model.js';
import { createMockLanguageModel, createMockRetriever } from '../testing/index.js';

// Each list names every member of its union and nothing else: `satisfies` rejects a code outside the union, and the
// `Exact` check rejects a union member missing from the list (both fail `tsc --noEmit`).
type Exact<List extends readonly string[], Union extends string> = [Exclude<Union, List[number]>] extends [never] ? true : false;

const STEP_CODES = ['call-failed', 'invalid-input', 'missing-reply', 'parse-failed'] as const satisfies readonly StepProblemCode[];
const LABEL_CODES = ['empty-reply', 'no-label', 'ambiguous-label'] as const satisfies readonly LabelProblemCode[];
const LIST_CODES = ['empty-reply'] as const satisfies readonly ListItemsProblemCode[];
const JSON_LINE_CODES = ['bad-json', 'bad-row'] as const satisfies readonly JsonLineProblemCode[];
const MOCK_RETRIEVER_CODES = ['no-searchable-terms'] as const satisfies readonly CoreProblemCode[];
const CORE_CODES = [...STEP_CODES, ...LABEL_CODES, ...JSON_LINE_CODES, ...MOCK_RETRIEVER_CODES] as const satisfies readonly CoreProblemCode[];

const exact: [
  Exact<typeof STEP_CODES, StepProblemCode>,
  Exact<typeof LABEL_CODES, LabelProblemCode>,
  Exact<typeof LIST_CODES, ListItemsProblemCode>,
  Exact<typeof JSON_LINE_CODES, JsonLineProblemCode>,
  Exact<typeof CORE_CODES, CoreProblemCode>,
] = [true, true, true, true, true];

/** An exhaustive switch: adding a code to CoreProblemCode without a case here fails the typecheck. */
function describeCode(code: CoreProblemCode): string {
  switch (code) {
    case 'call-failed':
    case 'invalid-input':
    case 'missing-reply':
    case 'parse-failed':
      return 'step';
    case 'empty-reply':
    case 'no-label':
    case 'ambiguous-label':
      return 'reply';
    case 'bad-json':
    case 'bad-row':
      return 'json-lines';
    case 'no-searchable-terms':
      return 'testing';
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

const codesOf = (problems: readonly { readonly code: string }[]) => problems.map((problem) => problem.code);

describe('core problem-code unions', () => {
  it('list every code of each union (compile-time check, restated at run time)', () => {
    expect(exact).toEqual([true, true, true, true, true]);
    expect(new Set(CORE_CODES.map(describeCode))).toEqual(new Set(['step', 'reply', 'json-lines', 'testing']));
  });

  it('runPromptedStep emits exactly the StepProblemCode codes', async () => {
    const failing: LanguageModel = {
      id: 'failing',
      async generate() {
        throw new Error('boom');
      },
    };
    const base = { step: 'probe', template: 'Q: {{q}}', variables: (input: string) => ({ q: input }) } as const;
    const seen = new Set<string>();
    const called = await runPromptedStep(['a'], { ...base, model: failing, parse: (reply) => ({ value: reply, problems: [] }) });
    for (const code of called.flatMap((item) => codesOf(item.problems))) seen.add(code);
    const unrendered = await runPromptedStep(['a'], {
      ...base,
      variables: () => ({}),
      model: createMockLanguageModel(),
      parse: (reply) => ({ value: reply, problems: [] }),
    });
    for (const code of unrendered.flatMap((item) => codesOf(item.problems))) seen.add(code);
    const short = createMockLanguageModel({ responses: ['only one'] });
    const shortModel: LanguageModel = { id: 'short', generate: async (request) => ({ ...(await short.generate({ ...request, n: 1 })) }) };
    const missing = await runPromptedStep(['a'], { ...base, n: 2, model: shortModel, parse: (reply) => ({ value: reply, problems: [] }) });
    for (const code of missing.flatMap((item) => codesOf(item.problems))) seen.add(code);
    const throwing = await runPromptedStep(['a'], {
      ...base,
      model: createMockLanguageModel(),
      parse: () => {
        throw new Error('bad parser');
      },
    });
    for (const code of throwing.flatMap((item) => codesOf(item.problems))) seen.add(code);
    expect([...seen].sort()).toEqual([...STEP_CODES].sort());
  });

  it('a parser code flows into StepItem problems, typed by the parser', async () => {
    const items = await runPromptedStep(['a'], {
      step: 'probe',
      template: '{{q}}',
      variables: (input: string) => ({ q: input }),
      model: createMockLanguageModel({ responses: ['maybe'] }),
      parse: (reply) => parseLabel(reply, { labels: ['yes', 'no'] }),
    });
    const problem = items[0]?.problems[0];
    // `problem.code` is StepProblemCode | LabelProblemCode: the exhaustive switch accepts it.
    expect(problem === undefined ? undefined : describeCode(problem.code)).toBe('reply');
    expect(problem?.code).toBe('no-label');
  });

  it('parseLabel emits exactly the LabelProblemCode codes', () => {
    const labels = ['entailment', 'neutral', 'contradiction'] as const;
    const replies = ['', '...', 'banana', 'entailment or neutral', 'Entailment. Neutral. Contradiction.', 'Entailment'];
    const seen = new Set(replies.flatMap((reply) => codesOf(parseLabel(reply, { labels }).problems)));
    expect([...seen].sort()).toEqual([...LABEL_CODES].sort());
  });

  it('parseListItems emits exactly the ListItemsProblemCode codes', () => {
    const seen = new Set(['', 'Here are the queries:', '1. one\n2. two'].flatMap((reply) => codesOf(parseListItems(reply).problems)));
    expect([...seen].sort()).toEqual([...LIST_CODES].sort());
  });

  it('the mock retriever emits exactly its CoreProblemCode codes', async () => {
    const retriever = createMockRetriever([{ id: 'd', text: 'aspirin fever' }]);
    const seen = new Set<CoreProblemCode>();
    for (const text of ['aspirin', '  ', '...']) for (const problem of (await retriever.retrieve({ query: { text } })).problems ?? []) seen.add(problem.code);
    expect([...seen]).toEqual([...MOCK_RETRIEVER_CODES]);
  });

  it('parseJsonLines emits exactly the JsonLineProblemCode codes', () => {
    const parsed = parseJsonLines('{"id":1}\nnot json\n[1]\n', {
      read: (value) => (Array.isArray(value) ? { reason: 'is an array, not an object' } : { value }),
    });
    expect([...new Set(codesOf(parsed.problems))].sort()).toEqual([...JSON_LINE_CODES].sort());
  });
});
