import { parseListItems, stripCodeFences, type ItemProblem } from '@factkit/core';
import type { ChunkKnowledgeFields } from './types.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

export interface ParseChunkKnowledgeOptions {
  /** Questions expected; fewer or more is a `count-mismatch` problem (extra ones are cut). @default 3 */
  readonly questionCount?: number;
}

export interface ParsedChunkKnowledge {
  readonly value: ChunkKnowledgeFields;
  readonly problems: ItemProblem<ChunkKnowledgeProblemCode>[];
}

/** Drops reasoning (`<think>…</think>`, keeping what follows the last close tag) and code fences. */
function prepareReply(reply: unknown): string {
  if (typeof reply !== 'string') return '';
  const lower = reply.toLowerCase();
  const close = lower.lastIndexOf('</think>');
  const afterThinking = close < 0 ? reply : reply.slice(close + '</think>'.length);
  return stripCodeFences(afterThinking);
}
const LIST_MARKER = /^\s*(?:[-*•·]\s+|\(?\d{1,3}[.)\]:]\s*|\*\*\d{1,3}[.)]\*\*\s*|q\d{1,3}[.:)]\s*|<q\d>\s*)/iu;
const LABEL = /^\s*(?:\*\*|#+\s*)?(title|candidate questions|questions?)\s*(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*/iu;

function clean(text: string): string {
  return text
    .replace(LIST_MARKER, '')
    .replace(/<\/?q\d>/giu, '')
    .replace(/^["'“”]+|["'“”,]+$/gu, '')
    .replace(/\*\*/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Index of the `}` that closes the `{` at `open`, skipping strings; -1 when unbalanced. Linear. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function fromJson(text: string): { title?: string; questions: string[] } | undefined {
  const open = text.indexOf('{');
  if (open < 0) return undefined;
  const close = matchingBrace(text, open);
  if (close < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(open, close + 1));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const lowerKeys = new Map(Object.keys(record).map((key) => [key.toLowerCase().replace(/[\s_-]+/gu, ''), key]));
  const titleKey = lowerKeys.get('title');
  const questionsKey = lowerKeys.get('questions') ?? lowerKeys.get('candidatequestions') ?? lowerKeys.get('question');
  const rawTitle = titleKey === undefined ? undefined : record[titleKey];
  const rawQuestions = questionsKey === undefined ? undefined : record[questionsKey];
  let questions: string[] = [];
  if (Array.isArray(rawQuestions)) questions = rawQuestions.filter((item): item is string => typeof item === 'string');
  else if (typeof rawQuestions === 'string') questions = rawQuestions.split(/\n+/u);
  return { ...(typeof rawTitle === 'string' ? { title: rawTitle } : {}), questions };
}

function fromText(text: string): { title?: string; questions: string[] } {
  let title: string | undefined;
  const questions: string[] = [];
  let section: 'none' | 'title' | 'questions' = 'none';
  for (const rawLine of text.split(/\r?\n/u)) {
    const line = rawLine.trim();
    if (line === '') continue;
    const label = LABEL.exec(line);
    if (label) {
      const kind = label[1]!.toLowerCase();
      const rest = line.slice(label[0].length);
      if (kind === 'title') {
        section = 'title';
        if (rest.trim() !== '' && title === undefined) title = rest;
      } else {
        section = 'questions';
        if (rest.trim() !== '') questions.push(rest);
      }
      continue;
    }
    if (section === 'title' && title === undefined) {
      title = line;
      continue;
    }
    const isListed = LIST_MARKER.test(line);
    if (section === 'questions' || isListed || line.endsWith('?') || line.endsWith('？')) {
      if (section === 'questions' || line.includes('?') || line.includes('？')) questions.push(line);
      else if (title === undefined && section === 'none') title = line;
    }
  }
  return { ...(title === undefined ? {} : { title }), questions };
}

/**
 * Parses a reply to `CHUNK_KNOWLEDGE_PROMPTS.chunkKnowledge`: JSON (also fenced or inside prose) or labelled/numbered text.
 * Pure, never throws, linear time. Problems: `empty-reply`, `missing-title`, `title-not-one-sentence` (the first
 * sentence is kept), `missing-questions`, `count-mismatch` (too few, or too many: extra ones are cut), `duplicate-question`.
 */
export function parseChunkKnowledge(reply: string, options: ParseChunkKnowledgeOptions = {}): ParsedChunkKnowledge {
  const { questionCount = 3 } = options;
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
  const text = prepareReply(reply);
  if (text.trim() === '') {
    return { value: { questions: [] }, problems: [{ code: 'empty-reply', message: 'the model returned no text', raw: String(reply ?? '') }] };
  }
  const raw = fromJson(text) ?? fromText(text);
  let title = raw.title === undefined ? undefined : clean(raw.title);
  if (title === '' || title === undefined) {
    title = undefined;
    problems.push({ code: 'missing-title', message: 'no title in the reply' });
  } else {
    const firstSentence = /^.+?[.!?。！？](?=\s+\p{Lu}|\s*$)/u.exec(title)?.[0];
    if (firstSentence !== undefined && firstSentence.length < title.length) {
      problems.push({ code: 'title-not-one-sentence', message: 'the title has more than one sentence; the first is kept', raw: title });
      title = firstSentence;
    }
  }
  const questions: string[] = [];
  const seen = new Set<string>();
  for (const item of raw.questions) {
    const question = clean(item);
    if (question === '') continue;
    const key = question.toLowerCase();
    if (seen.has(key)) {
      problems.push({ code: 'duplicate-question', message: `question repeated: ${question}` });
      continue;
    }
    seen.add(key);
    questions.push(question);
  }
  if (questions.length === 0) problems.push({ code: 'missing-questions', message: 'no questions in the reply' });
  else if (questions.length !== questionCount) {
    problems.push({ code: 'count-mismatch', message: `${questions.length} questions, expected ${questionCount}${questions.length > questionCount ? '; extra ones cut' : ''}` });
  }
  return { value: { ...(title === undefined ? {} : { title }), questions: questions.slice(0, questionCount) }, problems };
}

/**
 * Parses a reply to `CHUNK_KNOWLEDGE_PROMPTS.queryKeywords` and locates each keyword in the query (case-insensitive, left to right).
 * Keywords not found in the query are reported as `keyword-not-in-query` and left out. Pure, never throws.
 */
export function parseQueryKeywordReply(reply: string, query: string): { spans: Array<{ text: string; start: number; end: number; score: number }>; problems: ItemProblem<ChunkKnowledgeProblemCode>[] } {
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
  const text = prepareReply(reply);
  if (text.trim() === '') return { spans: [], problems: [{ code: 'empty-reply', message: 'the model returned no text' }] };
  let items: string[];
  const trimmed = text.trim();
  const json = trimmed.startsWith('[')
    ? (() => {
        try {
          const parsed: unknown = JSON.parse(trimmed);
          return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : undefined;
        } catch {
          return undefined;
        }
      })()
    : undefined;
  if (json) items = json;
  else {
    // Core's list reader (markers, bullets, closing remarks); a single line may hold comma-separated keywords.
    items = parseListItems(trimmed.replace(/^\s*keywords?\s*[:：]\s*/iu, '')).items.flatMap((line) => line.split(/[,，、]/u));
  }
  const spans: Array<{ text: string; start: number; end: number; score: number }> = [];
  items.forEach((item, rank) => {
    const keyword = clean(item).replace(/[.;:]+$/u, '');
    if (keyword === '') return;
    // Case-insensitive search on the query itself, so offsets stay right even where lower-casing changes lengths.
    const found = new RegExp(keyword.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'), 'iu').exec(query);
    if (!found) {
      problems.push({ code: 'keyword-not-in-query', message: `"${keyword}" does not occur in the query`, raw: item });
      return;
    }
    spans.push({ text: found[0], start: found.index, end: found.index + found[0].length, score: items.length - rank });
  });
  if (spans.length === 0 && problems.length === 0) problems.push({ code: 'no-keywords', message: 'no keywords in the reply' });
  return { spans, problems };
}
