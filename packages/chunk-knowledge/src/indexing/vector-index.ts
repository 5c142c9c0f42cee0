import { InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { FieldedDocument, Retriever, RetrieverFactory, ItemProblem } from '@factkit/core';
import { chunkOrigin } from '../internal/chunk-origin.js';
import type { AnnotatedChunk } from '../knowledge/types.js';
import type { LayoutField, PassageLayout, RenderPassageOptions } from './layouts.js';
import { renderField, renderPassage } from './layouts.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

/** Index each chunk as one vector of its rendered layout, or title / each question / chunk as separate vectors. */
export type IndexMode = PassageLayout | { readonly multiVector: readonly LayoutField[] };

/** The passages an annotated chunk is indexed as (text, record id, field), in the same form they are displayed. */
export interface IndexedPassage {
  readonly id: string;
  readonly chunkId: string;
  readonly documentId: string;
  readonly field: LayoutField | 'layout';
  readonly text: string;
}

/** Renders the passages of a batch in an index mode; records with empty text are reported, not indexed. */
export function renderIndexPassages(items: readonly AnnotatedChunk[], mode: IndexMode, options: RenderPassageOptions = {}): { passages: IndexedPassage[]; problems: ItemProblem<ChunkKnowledgeProblemCode>[] } {
  const passages: IndexedPassage[] = [];
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
  const { open = '<s>', close = '</s>' } = options;
  const wrap = (text: string): string => [open, text, close].filter((part) => part !== '').join(' ');
  items.forEach((item, index) => {
    const base = { chunkId: item.chunk.id, documentId: item.chunk.documentId };
    if ('fields' in mode) {
      passages.push({ ...base, id: item.chunk.id, field: 'layout', text: renderPassage(item, mode, options) });
      return;
    }
    for (const field of mode.multiVector) {
      const texts = field === 'questions' ? item.questions : [renderField(item, field)];
      texts.forEach((text, position) => {
        if (text.trim() === '') {
          problems.push({ index, id: item.chunk.id, code: 'empty-field', message: `field "${field}" of chunk "${item.chunk.id}" is empty; not indexed` });
          return;
        }
        passages.push({ ...base, id: `${item.chunk.id}::${field}${field === 'questions' ? position : ''}`, field, text: wrap(text) });
      });
    }
  });
  return { passages, problems };
}

export interface ChunkVectorRetrieverOptions {
  /** Builds the vectors and the retriever: e.g. `createDenseRetrieverFactory({ embedder, fold: 'max' })` from @factkit/retrieval. */
  readonly factory: RetrieverFactory;
  /** A layout (one vector per chunk) or `{ multiVector: ['title', 'questions', 'chunk'] }` (one per field, each question its own). */
  readonly mode: IndexMode;
  readonly render?: RenderPassageOptions;
  readonly abortSignal?: AbortSignal;
}

/**
 * Annotated chunks as fielded documents for a mode: a layout gives one field `layout` (the rendered passage); a
 * multi-vector mode gives the wrapped `title` / `chunk` texts and the list of wrapped questions, in the mode's order.
 * Text = the chunk's text, origin = parent document + chunk id. Empty fields are left out and reported.
 */
export function toChunkFieldedDocuments(
  items: readonly AnnotatedChunk[],
  mode: IndexMode,
  render: RenderPassageOptions = {},
): { documents: FieldedDocument[]; fields: Record<string, number>; problems: ItemProblem<ChunkKnowledgeProblemCode>[] } {
  const { passages, problems } = renderIndexPassages(items, mode, render);
  const byChunk = new Map<string, Record<string, string | string[]>>();
  for (const passage of passages) {
    const fields = byChunk.get(passage.chunkId) ?? {};
    byChunk.set(passage.chunkId, fields);
    if (passage.field === 'questions') ((fields['questions'] ??= []) as string[]).push(passage.text);
    else fields[passage.field] = passage.text;
  }
  const documents = items.map((item) => ({
    id: item.chunk.id,
    fields: byChunk.get(item.chunk.id) ?? {},
    text: item.chunk.text,
    origin: chunkOrigin(item.chunk),
    ...(item.chunk.metadata === undefined ? {} : { metadata: item.chunk.metadata }),
  }));
  const names = 'fields' in mode ? ['layout'] : mode.multiVector;
  return { documents, fields: Object.fromEntries(names.map((name) => [name, 1])), problems };
}

/**
 * A core `Retriever` over annotated chunks embedded in a layout or multi-vector mode, built by the given
 * `RetrieverFactory` (chunk-knowledge keeps no vector index of its own): one evidence per chunk, `documentId` = chunk id,
 * `origin` = parent document and chunk, `text` = the chunk's text. `problems` lists the empty fields left out.
 * @throws InvalidArgumentError for a missing factory or mode.
 * @example await createChunkVectorRetriever(items, { factory: createDenseRetrieverFactory({ embedder }), mode: CASE_6_QUESTIONS_CHUNK })
 */
export async function createChunkVectorRetriever(items: readonly AnnotatedChunk[], options: ChunkVectorRetrieverOptions): Promise<Retriever & { readonly problems: readonly ItemProblem<ChunkKnowledgeProblemCode>[] }> {
  const { factory, mode, render = {}, abortSignal } = options;
  const where = 'createChunkVectorRetriever';
  if (!factory || typeof factory.createRetriever !== 'function') throw new InvalidArgumentError({ where, argument: 'factory', message: 'must be a RetrieverFactory (e.g. createDenseRetrieverFactory from @factkit/retrieval)' });
  if (typeof mode !== 'object' || mode === null) throw new InvalidArgumentError({ where, argument: 'mode', message: 'must be a passage layout or { multiVector: fields }' });
  throwIfAborted(abortSignal);
  const { documents, fields, problems } = toChunkFieldedDocuments(items, mode, render);
  const retriever = await factory.createRetriever({ documents, fields, ...(abortSignal ? { abortSignal } : {}) });
  return { id: retriever.id, retrieve: (request) => retriever.retrieve(request), problems };
}
