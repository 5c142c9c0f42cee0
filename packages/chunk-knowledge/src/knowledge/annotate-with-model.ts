import { assertPositiveInteger, InvalidArgumentError, isRefusal, itemFailed, itemOk, runPromptedStep } from '@factkit/core';
import type { Chunk, GenerationProvenance, ItemOutcome, LanguageModel, ParseOutcome, ProgressCallback, StepItem, ItemProblem } from '@factkit/core';
import { computeBaselineTitle } from './offline-annotator.js';
import { parseChunkKnowledge } from './parse-chunk-knowledge.js';
import { CHUNK_KNOWLEDGE_PROMPT, TEXT2TEXT_QUESTIONS_PREFIX, TEXT2TEXT_TITLE_PREFIX } from './prompts.js';
import type { AnnotatedChunk, ChunkKnowledgeFields } from './types.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

/** An annotated chunk from a model, with the provenance of its call(s) and the raw replies. */
export interface ModelAnnotatedChunk extends AnnotatedChunk {
  readonly provenance: readonly GenerationProvenance[];
  readonly raw: readonly string[];
}

export interface ChunkAnnotationResult {
  /**
   * One outcome per chunk, in input order: `ok` with the annotated chunk, or `failed` when the model gave nothing usable
   * (the call failed, or the reply was empty or a refusal); a failed outcome's problems carry the chunk's `index` and
   * `id`, and `raw` is the reply when there was one.
   */
  readonly outcomes: ItemOutcome<ModelAnnotatedChunk, ChunkKnowledgeProblemCode>[];
}

function failedChunk(chunk: Chunk, index: number, problems: readonly ItemProblem<ChunkKnowledgeProblemCode>[], raw: readonly string[]): ItemOutcome<ModelAnnotatedChunk, ChunkKnowledgeProblemCode> {
  const tagged = (problems.length > 0 ? problems : [{ code: 'no-usable-reply' as const, message: 'no usable reply' }]).map((problem) => ({ ...problem, index, id: chunk.id }));
  return itemFailed(
    tagged,
    raw.find((reply) => reply !== ''),
  );
}

export interface ModelAnnotatorOptions {
  readonly model: LanguageModel;
  /** @default 3 */
  readonly questionCount?: number;
  /** Placeholders `{{chunk}}` and `{{questionCount}}`. @default CHUNK_KNOWLEDGE_PROMPTS.chunkKnowledge */
  readonly prompt?: string;
  readonly system?: string;
  /** @default 0 */
  readonly temperature?: number;
  /** @default 400 */
  readonly maxTokens?: number;
  /** Model calls at once. @default 4 */
  readonly concurrency?: number;
  /** A reply without a title gets the baseline lead-sentence title (`titleSource: 'fallback'`) or an empty one. @default 'baseline' */
  readonly titleFallback?: 'baseline' | 'none';
  readonly abortSignal?: AbortSignal;
  /** Called as chunks finish (`failed` counts chunks the model gave nothing usable for so far). */
  readonly onProgress?: ProgressCallback;
}

export const MODEL_ANNOTATION_STEP = 'chunk-knowledge.annotate';
export const TEXT2TEXT_ANNOTATION_STEP = 'chunk-knowledge.text2text';

function checkCommon(chunks: readonly Chunk[], model: LanguageModel, questionCount: number, where: string): void {
  if (!Array.isArray(chunks)) throw new InvalidArgumentError({ where, argument: 'chunks', message: 'must be an array of chunks' });
  chunks.forEach((chunk, index) => {
    if (typeof chunk?.text !== 'string' || typeof chunk.id !== 'string') throw new InvalidArgumentError({ where, argument: `chunks[${index}]`, message: 'must be a Chunk with string id and text' });
  });
  if (typeof model?.generate !== 'function') throw new InvalidArgumentError({ where, argument: 'model', message: 'must be a LanguageModel' });
  assertPositiveInteger('questionCount', questionCount, where);
}

function unusable(reply: string): ItemProblem<ChunkKnowledgeProblemCode> | undefined {
  if (reply.trim() === '') return { code: 'empty-reply', message: 'the model returned no text' };
  if (isRefusal(reply)) return { code: 'refusal', message: 'the model refused', raw: reply.slice(0, 500) };
  return undefined;
}

function finish(
  chunk: Chunk,
  fields: ChunkKnowledgeFields,
  problems: ItemProblem<ChunkKnowledgeProblemCode>[],
  method: string,
  titleFallback: 'baseline' | 'none',
  extra: { provenance: readonly GenerationProvenance[]; raw: readonly string[] },
): ModelAnnotatedChunk {
  let title = fields.title ?? '';
  let titleSource: AnnotatedChunk['titleSource'] = 'model';
  if (fields.title === undefined) {
    if (titleFallback === 'baseline') {
      title = computeBaselineTitle(chunk.text);
      titleSource = 'fallback';
      problems.push({ id: chunk.id, code: 'title-fallback', message: 'no model title; the baseline lead sentence stands in' });
    }
  }
  return { chunk, title, questions: fields.questions, titleSource, method, problems: problems.map((problem) => ({ id: chunk.id, ...problem })), ...extra };
}

/**
 * The paper's chunk knowledge through a chat/completion model: ONE call per chunk returns a one-sentence title and
 * `questionCount` candidate questions (`CHUNK_KNOWLEDGE_PROMPTS.chunkKnowledge`, parsed by `parseChunkKnowledge`). Runs in batches
 * with bounded concurrency (core `runPromptedStep`); wrap `model` with core `withCache` to resume a stopped run from
 * the call cache and `withRetry` for transient errors. Failed calls, empty replies and refusals are `failed` outcomes,
 * never annotations; partial replies keep per-field problems (a missing title falls back to the baseline's).
 */
export async function annotateChunksWithModel(chunks: readonly Chunk[], options: ModelAnnotatorOptions): Promise<ChunkAnnotationResult> {
  const { model, questionCount = 3, prompt = CHUNK_KNOWLEDGE_PROMPT, system, temperature = 0, maxTokens = 400, concurrency = 4, titleFallback = 'baseline', abortSignal, onProgress } = options;
  checkCommon(chunks, model, questionCount, 'annotateChunksWithModel');
  const steps = await runPromptedStep(chunks, {
    step: MODEL_ANNOTATION_STEP,
    model,
    template: prompt,
    variables: (chunk) => ({ chunk: chunk.text, questionCount }),
    parse: (reply): ParseOutcome<ChunkKnowledgeFields, ChunkKnowledgeProblemCode> => {
      const bad = unusable(reply);
      if (bad) return { problems: [bad] };
      return parseChunkKnowledge(reply, { questionCount });
    },
    ...(system === undefined ? {} : { system }),
    temperature,
    maxTokens,
    concurrency,
    ...(abortSignal ? { abortSignal } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  const outcomes = steps.map((step, index) => {
    const chunk = chunks[index]!;
    if (step.status === 'failed' || step.value === undefined) return failedChunk(chunk, index, step.problems, step.raw);
    return itemOk(finish(chunk, step.value, [...step.problems], MODEL_ANNOTATION_STEP, titleFallback, { provenance: [step.provenance], raw: step.raw }));
  });
  return { outcomes };
}

export interface Text2TextAnnotatorOptions extends Omit<ModelAnnotatorOptions, 'prompt' | 'system'> {
  /** Input prefix of the title task. @default TEXT2TEXT_TITLE_PREFIX ('title: ') */
  readonly titlePrefix?: string;
  /** Input prefix of the question task. @default TEXT2TEXT_QUESTIONS_PREFIX ('questions: ') */
  readonly questionsPrefix?: string;
}

/** Splits a seq2seq question output ("q1? q2? q3?", one per line, or `<sep>`-separated) into questions. */
export function splitGeneratedQuestions(reply: string): string[] {
  return reply
    .split(/\s*(?:<sep>|\|\||\n|;)\s*|(?<=[?？])\s+/u)
    .map((part) => part.replace(/^\s*(?:\d{1,2}[.)]|[-*•])\s*/u, '').trim())
    .filter((part) => part.length > 0);
}

/**
 * The text2text path: a local seq2seq model (e.g. @factkit/transformers' text2text model over an exported T5) with
 * the paper's two decoders as two tasks on the same chunk, `title: <chunk>` and `questions: <chunk>`, and the same
 * output contract as `annotateChunksWithModel`.
 */
export async function annotateChunksWithText2Text(chunks: readonly Chunk[], options: Text2TextAnnotatorOptions): Promise<ChunkAnnotationResult> {
  const { model, questionCount = 3, titlePrefix = TEXT2TEXT_TITLE_PREFIX, questionsPrefix = TEXT2TEXT_QUESTIONS_PREFIX, temperature, maxTokens = 128, concurrency = 4, titleFallback = 'baseline', abortSignal, onProgress } = options;
  checkCommon(chunks, model, questionCount, 'annotateChunksWithText2Text');
  const common = {
    model,
    variables: (chunk: Chunk) => ({ chunk: chunk.text }),
    ...(temperature === undefined ? {} : { temperature }),
    maxTokens,
    concurrency,
    ...(abortSignal ? { abortSignal } : {}),
  };
  const escape = (prefix: string) => prefix.replaceAll('{{', '{ {');
  // Progress counts both tasks: `total` = 2 × chunks.
  const total = chunks.length * 2;
  const titles: StepItem<string, ChunkKnowledgeProblemCode>[] = await runPromptedStep(chunks, {
    ...common,
    onProgress: ({ completed, failed }) => onProgress?.({ completed, total, failed: failed ?? 0 }),
    step: `${TEXT2TEXT_ANNOTATION_STEP}.title`,
    template: `${escape(titlePrefix)}{{chunk}}`,
    parse: (reply) => {
      const bad = unusable(reply);
      if (bad) return { problems: [bad] };
      const parsed = parseChunkKnowledge(`Title: ${reply.split(/\r?\n/u).find((line) => line.trim() !== '') ?? ''}`, { questionCount: 1 });
      return { ...(parsed.value.title === undefined ? {} : { value: parsed.value.title }), problems: parsed.problems.filter((problem) => problem.code !== 'missing-questions') };
    },
  });
  const titlesFailed = titles.filter((title) => title.status === 'failed').length;
  const questions: StepItem<string[], ChunkKnowledgeProblemCode>[] = await runPromptedStep(chunks, {
    ...common,
    step: `${TEXT2TEXT_ANNOTATION_STEP}.questions`,
    template: `${escape(questionsPrefix)}{{chunk}}`,
    parse: (reply) => {
      const bad = unusable(reply);
      if (bad) return { problems: [bad] };
      const parsed = parseChunkKnowledge(
        splitGeneratedQuestions(reply)
          .map((question, i) => `${i + 1}. ${question.endsWith('?') ? question : `${question}?`}`)
          .join('\n'),
        { questionCount },
      );
      return { value: [...parsed.value.questions], problems: parsed.problems.filter((problem) => problem.code !== 'missing-title') };
    },
    onProgress: ({ completed, failed }) => onProgress?.({ completed: chunks.length + completed, total, failed: titlesFailed + (failed ?? 0) }),
  });
  const outcomes = chunks.map((chunk, index) => {
    const title = titles[index]!;
    const question = questions[index]!;
    if (question.status === 'failed' || question.value === undefined || question.value.length === 0 || title.status === 'failed') {
      return failedChunk(chunk, index, [...title.problems, ...question.problems], [...question.raw, ...title.raw]);
    }
    const fields: ChunkKnowledgeFields = { ...(title.value === undefined ? {} : { title: title.value }), questions: question.value };
    return itemOk(finish(chunk, fields, [...title.problems, ...question.problems], TEXT2TEXT_ANNOTATION_STEP, titleFallback, { provenance: [title.provenance, question.provenance], raw: [...title.raw, ...question.raw] }));
  });
  return { outcomes };
}
