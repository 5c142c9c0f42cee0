import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chunk } from '@factkit/core';
import type { ScriptedReply, ScriptedRequest } from '@factkit/test-utils';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { annotateWithModel } from '../src/model-annotations.js';

const texts = ['ALPHA aspirin lowers fever.', 'BRAVO statins lower cholesterol.', 'CHARLIE vitamin D in winter.', 'DELTA sleep and memory.', 'ECHO malaria vaccines.', 'FOXTROT gut bacteria.', 'GOLF heart rate.'];
const chunks: Chunk[] = texts.map((text, index) => ({ id: `d${index}#0`, documentId: `d${index}`, text, ordinal: 0, start: 0, end: text.length }));

/** Scripted replies keyed by the chunk's first word, so concurrency cannot mix them up. */
function reply(request: ScriptedRequest): ScriptedReply {
  const body = request.body as { messages: Array<{ content: string }> };
  const prompt = body.messages.map((message) => message.content).join('\n');
  if (prompt.includes('ALPHA')) return { content: '{"title": "Aspirin lowers fever.", "questions": ["Does aspirin lower fever?", "What lowers fever?", "Is aspirin an antipyretic?"]}' };
  if (prompt.includes('BRAVO')) return { content: 'Title: Statins and cholesterol\nQuestions:\n1. Do statins lower cholesterol?\n2. What do statins do?\n3. Are statins effective?' };
  if (prompt.includes('CHARLIE')) return { content: '```json\n{"questions": ["When is vitamin D low?", "Why winter?"]}\n```' };
  if (prompt.includes('DELTA')) return { content: '{"title":"Sleep and memory.","questions":["q1?","q2?","q3?","q4?","q5?"]}' };
  if (prompt.includes('ECHO')) return { content: "I'm sorry, but I can't help with that request." };
  if (prompt.includes('FOXTROT')) return { malformed: true };
  return { status: 500 };
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('annotateWithModel against a scripted OpenAI-compatible server', () => {
  it('keeps good and partial replies with per-field problems, keeps refusals and failed calls as failed outcomes, and resumes from the call cache', async () => {
    const server = await startScriptedOpenAIServer({ script: reply });
    cleanup.push(() => server.close());
    const cacheDirectory = mkdtempSync(join(tmpdir(), 'chunk-search-llm-'));
    cleanup.push(() => rmSync(cacheDirectory, { recursive: true, force: true }));
    const options = { cacheDirectory, baseUrl: server.url, modelName: 'scripted-model', apiKey: 'sk-test-secret-123456', maxRetries: 0, concurrency: 3, batchSize: 4 };

    const first = await annotateWithModel(chunks, options);
    const firstItems = first.outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
    const firstFailed = first.outcomes.flatMap((outcome) => (outcome.status === 'failed' ? [{ chunkId: outcome.problems[0]!.id, ...outcome }] : []));
    expect(firstItems.map((item) => item.chunk.id)).toEqual(['d0#0', 'd1#0', 'd2#0', 'd3#0']);
    expect(firstFailed.map((entry) => entry.chunkId).sort()).toEqual(['d4#0', 'd5#0', 'd6#0']);
    expect(firstFailed.find((entry) => entry.chunkId === 'd4#0')?.problems.map((p) => p.code)).toContain('refusal');
    for (const entry of firstFailed) expect(JSON.stringify(entry)).not.toContain('sk-test-secret-123456');

    const [alpha, bravo, charlie, delta] = firstItems;
    expect(alpha).toMatchObject({ title: 'Aspirin lowers fever.', titleSource: 'model', problems: [] });
    expect(bravo!.questions).toEqual(['Do statins lower cholesterol?', 'What do statins do?', 'Are statins effective?']);
    expect(charlie).toMatchObject({ title: 'CHARLIE vitamin D in winter.', titleSource: 'fallback' });
    expect(charlie!.problems.map((p) => p.code)).toEqual(['missing-title', 'count-mismatch', 'title-fallback']);
    expect(delta!.questions).toEqual(['q1?', 'q2?', 'q3?']);
    expect(delta!.problems.map((p) => p.code)).toEqual(['count-mismatch']);
    expect(alpha!.provenance[0]).toMatchObject({ step: 'chunk-knowledge.annotate', cached: false });
    expect(alpha!.provenance[0]!.prompts.join('\n')).toContain('ALPHA aspirin lowers fever.');

    // Resume: finished calls come from the cache; only the failed chunks are asked again.
    const requestsBefore = server.requests.filter((request) => request.path === '/v1/chat/completions').length;
    const second = await annotateWithModel(chunks, options);
    const secondItems = second.outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
    const newRequests = server.requests.filter((request) => request.path === '/v1/chat/completions').length - requestsBefore;
    expect(secondItems.map((item) => item.chunk.id)).toEqual(['d0#0', 'd1#0', 'd2#0', 'd3#0']);
    expect(secondItems.every((item) => item.provenance[0]!.cached)).toBe(true);
    expect(newRequests).toBe(3 - 1); // the refusal was a successful call, so it is cached too; malformed and 500 are asked again
  });
});
