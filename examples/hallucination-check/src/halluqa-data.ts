// HalluQA's Knowledge questions, the 24 models' judged answers to them (Invalid_Judge rows left out) and the Source
// passages the offline runs search.
import type { Document } from '@factkit/core';
import { readJsonl } from './shared.js';

export interface Question {
  question_id: number;
  Question: string;
  Category: string;
  Source?: string;
}
export interface Judged {
  model: string;
  question_id: number;
  question: string;
  response: string;
  is_hallucination: boolean | 'Invalid_Judge';
}

export interface HalluQaKnowledge {
  readonly questions: ReadonlyMap<number, Question>;
  readonly rows: readonly Judged[];
  /** Judged rows left out because the judge's verdict was Invalid_Judge. */
  readonly invalid: number;
  readonly sourceDocuments: readonly Document[];
}

/** The judged answers to Knowledge questions, of `models` only when given, the first `limit`. */
export function loadHalluQaKnowledge(options: { limit: number; models?: readonly string[] }): HalluQaKnowledge {
  const { limit } = options;
  const modelFilter = options.models;
  const questions = readJsonl<Question>('halluqa', 'questions.jsonl');
  const knowledge = new Map(questions.filter((q) => q.Category === 'Knowledge').map((q) => [q.question_id, q]));
  const judged = readJsonl<Judged>('halluqa', 'judged_responses.jsonl.gz').filter((row) => knowledge.has(row.question_id) && typeof row.is_hallucination === 'boolean' && (!modelFilter || modelFilter.includes(row.model)));
  const rows = judged.slice(0, limit);
  const invalid = readJsonl<Judged>('halluqa', 'judged_responses.jsonl.gz').filter((r) => knowledge.has(r.question_id) && r.is_hallucination === 'Invalid_Judge').length;
  const sourceDocuments: Document[] = [...knowledge.values()]
    .filter((q) => q.Source)
    .map((q) => ({
      id: `halluqa-source-${q.question_id}`,
      text: (q.Source ?? '')
        .split('\n')
        .filter((l) => !/^https?:\/\//.test(l.trim()))
        .join(' '),
    }));
  return { questions: knowledge, rows, invalid, sourceDocuments };
}
