import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotateChunksWithText2Text } from '@factkit/chunk-knowledge';
import { createTransformersText2TextModel } from '@factkit/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The transformers package's repo-built T5-shaped fixture (no trained text2text weights exist offline).
import { writeEchoSeq2SeqModel } from '../../../packages/transformers/test/fixtures/onnx-fixtures.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'chunk-search-t2t-'));
  await writeEchoSeq2SeqModel({ directory: join(root, 'echo'), words: ['title', 'questions', 'aspirin', 'fever', 'statins'] });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('text2text path through a local transformers.js seq2seq model', () => {
  it('runs the title and question tasks on the same chunk and returns the model-annotation contract', async () => {
    // The fixture answers with the most frequent input word, so each task's output is known in advance.
    const model = createTransformersText2TextModel({ modelPath: join(root, 'echo'), defaultMaxTokens: 8 });
    const text = 'aspirin fever aspirin';
    const result = await annotateChunksWithText2Text([{ id: 'd#0', documentId: 'd', text, ordinal: 0, start: 0, end: text.length }], { model, concurrency: 1 });
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual(['ok']);
    const item = result.outcomes[0]?.status === 'ok' ? result.outcomes[0].value : undefined;
    expect(item).toMatchObject({ title: 'aspirin', questions: ['aspirin?'], titleSource: 'model', method: 'chunk-knowledge.text2text' });
    expect(item!.problems.map((problem) => problem.code)).toEqual(['count-mismatch']);
    expect(item!.provenance.map((entry) => entry.prompts[0])).toEqual(['title: aspirin fever aspirin', 'questions: aspirin fever aspirin']);
  });
});
