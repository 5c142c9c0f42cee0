import type { Chunk, Document, LanguageModel } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { createDenseRetrieverFactory } from '@factkit/retrieval';
import { compareProblemCodes } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { chunkDocuments } from './chunking/chunk-documents.js';
import { createSentenceChunker } from './chunking/sentence-chunker.js';
import type { ChunkKnowledgeProblemCode } from './index.js';
import { getPassageLayout } from './indexing/layouts.js';
import { createChunkVectorRetriever } from './indexing/vector-index.js';
import { extractQueryKeywords } from './keywords/query-keywords.js';
import { extractQueryKeywordsWithModel } from './keywords/query-keywords-with-model.js';
import { annotateChunksWithModel, annotateChunksWithText2Text } from './knowledge/annotate-with-model.js';
import { createOfflineAnnotator } from './knowledge/offline-annotator.js';
import type { AnnotatedChunk } from './knowledge/types.js';
import { runLayoutStudy } from './study/run-layout-study.js';

/** Every code, listed by hand: `satisfies` rejects a code outside the union, `Unlisted` one of the union left out. */
const ALL_CODES = [
  'empty-document',
  'invalid-text',
  'long-sentence-split',
  'invalid-document',
  'duplicate-document-id',
  'duplicate-chunk',
  'empty-reply',
  'refusal',
  'no-usable-reply',
  'missing-title',
  'title-not-one-sentence',
  'title-fallback',
  'missing-questions',
  'duplicate-question',
  'count-mismatch',
  'no-keywords',
  'keyword-not-in-query',
  'empty-field',
  'retrieval-failed',
  'call-failed',
  'invalid-input',
  'missing-reply',
  'parse-failed',
] as const satisfies readonly ChunkKnowledgeProblemCode[];
type Unlisted = Exclude<ChunkKnowledgeProblemCode, (typeof ALL_CODES)[number]>;
const everyCodeListed: [Unlisted] extends [never] ? true : Unlisted = true;

/**
 * Codes no input reaches through the public functions: core's step adds `invalid-input` / `parse-failed` only when a
 * prompt cannot render or a parser throws (ours do neither), and `no-usable-reply` stands in for a failed step that
 * came back without any problem (core always gives one).
 */
const NOT_PROVOKED: readonly ChunkKnowledgeProblemCode[] = ['no-usable-reply', 'invalid-input', 'parse-failed'];

const chunk = (id: string, text: string): Chunk => ({ id, documentId: id, text, ordinal: 0, start: 0, end: text.length });
const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
/** A language model that answers each prompt by the marker word it contains (`''` = no reply, `null` = the call fails). */
const scripted = (replies: Readonly<Record<string, string | null>>): LanguageModel => ({
  id: 'scripted',
  async generate(request) {
    const prompt = request.prompt ?? request.messages?.map((message) => message.content).join('\n') ?? '';
    const marker = Object.keys(replies).find((key) => prompt.includes(key));
    const reply = marker === undefined ? undefined : replies[marker];
    if (reply === null) throw new Error('HTTP 503');
    return { texts: reply === undefined ? [] : [reply], usage };
  },
});

/** Runs the package's functions on inputs that provoke each code and collects every code they emit. */
async function provokeCodes(): Promise<Set<string>> {
  const codes = new Set<string>();
  const add = (problems: readonly { readonly code: string }[] | undefined) => {
    for (const problem of problems ?? []) codes.add(problem.code);
  };
  // Chunking: empty, lone surrogate, an over-long sentence, a non-document, a repeated id, a repeated text.
  const documents = [
    { id: 'empty', text: '' },
    { id: 'surrogate', text: 'Broken \uD800 text.' },
    { id: 'long', text: `${'word '.repeat(40)}end.` },
    { id: 'twice', text: 'Aspirin lowers fever.' },
    { id: 'twice', text: 'Another text.' },
    { id: 'copy', text: 'Aspirin lowers fever.' },
    null,
  ] as unknown as Document[];
  add(chunkDocuments(documents, { chunker: createSentenceChunker({ maxTokens: 8 }) }).problems);
  // Offline annotator: nothing to take a title from; fewer key phrases than questions.
  const offline = createOfflineAnnotator();
  add(offline.annotate(chunk('blank', '   ')).problems);
  add(offline.annotate(chunk('short', 'Aspirin.')).problems);
  // Model annotation: each reply shape, a failed call, no reply.
  const model = scripted({
    EMPTY: '',
    REFUSE: "I'm sorry, but I can't help with that.",
    TWO: '{"title": "Aspirin. It lowers fever.", "questions": ["Does aspirin work?", "Does aspirin work?", "Why?", "How?"]}',
    UNTITLED: '{"questions": ["Does aspirin work?", "Why?", "How?"]}',
    NOQUESTIONS: '{"title": "Aspirin lowers fever."}',
    DOWN: null,
  });
  const annotated = await annotateChunksWithModel(
    ['EMPTY', 'REFUSE', 'TWO', 'UNTITLED', 'NOQUESTIONS', 'DOWN', 'SILENT'].map((marker) => chunk(marker, `${marker} aspirin lowers fever.`)),
    { model, concurrency: 1 },
  );
  for (const outcome of annotated.outcomes) add(outcome.status === 'ok' ? outcome.value.problems : outcome.problems);
  const text2text = await annotateChunksWithText2Text([chunk('t', 'DOWN aspirin.')], { model, concurrency: 1 });
  for (const outcome of text2text.outcomes) add(outcome.problems);
  // Query keywords: only stop words; a keyword the query does not contain; an empty reply.
  add(extractQueryKeywords('the of and').problems);
  const keywords = await extractQueryKeywordsWithModel(['KEYWORDS aspirin fever', 'EMPTY query'], { model: scripted({ KEYWORDS: 'banana', EMPTY: '' }) });
  for (const outcome of keywords.outcomes) add(outcome.status === 'ok' ? outcome.value.problems : outcome.problems);
  // Indexing: an empty field is not indexed.
  const items: AnnotatedChunk[] = [{ chunk: chunk('c', 'Aspirin lowers fever.'), title: '', questions: ['Does aspirin lower fever?'], titleSource: 'baseline', method: 'test', problems: [] }];
  add((await createChunkVectorRetriever(items, { factory: createDenseRetrieverFactory({ embedder: createMockEmbedder({ dimensions: 16 }) }), mode: { multiVector: ['title', 'chunk'] } })).problems);
  // Study: a retriever that throws.
  const study = await runLayoutStudy({
    items,
    queries: [{ text: 'aspirin', documentIds: ['c'] }],
    layouts: [getPassageLayout('case-1')],
    systems: [
      {
        name: 'broken',
        retriever: {
          id: 'throws',
          retrieve: async () => {
            throw new Error('boom');
          },
        },
      },
    ],
  });
  for (const row of study.rows) add(row.problems);
  return codes;
}

describe('ChunkKnowledgeProblemCode', () => {
  it('lists every code of the union (compile-time check)', () => {
    expect(everyCodeListed).toBe(true);
    expect(new Set(ALL_CODES).size).toBe(ALL_CODES.length);
  });

  it('is exactly the set of codes the package emits, each provoked here but those no input reaches', async () => {
    const emitted = await provokeCodes();
    expect(compareProblemCodes(ALL_CODES, emitted)).toEqual({ outside: [], notEmitted: NOT_PROVOKED });
  });
});
