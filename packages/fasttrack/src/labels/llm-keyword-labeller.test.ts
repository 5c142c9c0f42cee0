import { createMockLanguageModel } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { KEYWORD_PROMPT } from '../prompts.js';
import { createLlmKeywordLabeller } from './llm-keyword-labeller.js';

describe('createLlmKeywordLabeller', () => {
  it('sends Fig. 3 with the cluster texts (temperature 0, 256 tokens) and parses #keywords', async () => {
    const model = createMockLanguageModel({ responses: ['#keywords: Kerala, COVID-19, confirmed cases, surveillance, India', 'no marker here at all'] });
    const labels = await createLlmKeywordLabeller({ model, concurrency: 1 }).label({
      clusters: [
        { leafId: 3, texts: ['Kerala reported cases.', 'Kerala traced contacts.'] },
        { leafId: 8, texts: ['Other text.'] },
      ],
    });
    expect(model.calls[0]?.prompt).toBe(KEYWORD_PROMPT.replace('{{clusterTexts}}', 'Kerala reported cases.\nKerala traced contacts.'));
    expect(model.calls[0]).toMatchObject({ temperature: 0, maxTokens: 256 });
    expect(labels[0]).toMatchObject({ leafId: 3, status: 'ok', keywords: ['Kerala', 'COVID-19', 'confirmed cases', 'surveillance', 'India'] });
    expect(labels[0]?.provenance?.step).toBe('fasttrack.keywords');
    expect(labels[1]?.problems.map((problem) => problem.code)).toContain('missing-section');
  });

  it('leaves a leaf whose call failed unlabelled, with the reason', async () => {
    const model = {
      id: 'down',
      async generate(): Promise<never> {
        throw new Error('connection refused');
      },
    };
    const [label] = await createLlmKeywordLabeller({ model }).label({ clusters: [{ leafId: 1, texts: ['x'] }] });
    expect(label).toMatchObject({ status: 'failed', keywords: [] });
    expect(label?.problems[0]?.code).toBe('call-failed');
  });
});
