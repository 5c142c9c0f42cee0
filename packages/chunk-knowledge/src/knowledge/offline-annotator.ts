import { assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError, segmentSentences } from '@factkit/core';
import type { Chunk, ItemProblem } from '@factkit/core';
import { extractRakeKeywords } from '../keywords/rake.js';
import type { AnnotatedChunk } from './types.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

/** Question templates of the offline baseline; `{{a}}` and `{{b}}` are the chunk's key phrases. */
export const BASELINE_QUESTION_TEMPLATES: readonly string[] = ['What is known about {{a}}?', 'How is {{a}} related to {{b}}?', 'What does the study report on {{a}}?', 'Why does {{a}} matter for {{b}}?'];

export const OFFLINE_ANNOTATOR_METHOD = 'lead-sentence+rake-templates (baseline)';

export interface OfflineAnnotatorOptions {
  /** Candidate questions per chunk. @default 3 */
  readonly questionCount?: number;
  /** Title from the chunk's first sentence or from its top RAKE key phrases. @default 'lead-sentence' */
  readonly titleFrom?: 'lead-sentence' | 'keyphrases';
  /** The title is cut to this many words. @default 24 */
  readonly maxTitleWords?: number;
  /** @default BASELINE_QUESTION_TEMPLATES */
  readonly questionTemplates?: readonly string[];
}

/** Title of the baseline: the lead sentence (cut to `maxTitleWords` words) or the top three key phrases. */
export function computeBaselineTitle(text: string, options: Pick<OfflineAnnotatorOptions, 'titleFrom' | 'maxTitleWords'> = {}): string {
  const { titleFrom = 'lead-sentence', maxTitleWords = 24 } = options;
  if (titleFrom === 'keyphrases') {
    const phrases = extractRakeKeywords(text, { topK: 3 }).map((phrase) => phrase.text);
    if (phrases.length > 0) return phrases.join('; ');
  }
  const lead = segmentSentences(text)[0]?.text ?? text.trim();
  const words = lead.split(/\s+/u).filter((word) => word.length > 0);
  return words.length <= maxTitleWords ? words.join(' ') : words.slice(0, maxTitleWords).join(' ');
}

/**
 * LLM-free chunk annotator (a baseline, not the paper's model): title = lead sentence (or top RAKE key phrases),
 * questions = the chunk's top RAKE key phrases put into fixed templates. Deterministic and fast.
 * @throws InvalidArgumentError for questionCount < 0 or an empty template list.
 */
export function createOfflineAnnotator(options: OfflineAnnotatorOptions = {}): { readonly id: string; annotate(chunk: Chunk): AnnotatedChunk } {
  const { questionCount = 3, titleFrom = 'lead-sentence', maxTitleWords = 24, questionTemplates = BASELINE_QUESTION_TEMPLATES } = options;
  const where = 'createOfflineAnnotator';
  assertNonNegativeInteger('questionCount', questionCount, where);
  assertPositiveInteger('maxTitleWords', maxTitleWords, where);
  if (!Array.isArray(questionTemplates) || questionTemplates.length === 0) throw new InvalidArgumentError({ where, argument: 'questionTemplates', message: 'must be a non-empty array of strings' });
  return {
    id: OFFLINE_ANNOTATOR_METHOD,
    annotate(chunk: Chunk): AnnotatedChunk {
      if (typeof chunk?.text !== 'string') throw new InvalidArgumentError({ where: `${where}.annotate`, argument: 'chunk.text', message: 'must be a string' });
      const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
      const title = computeBaselineTitle(chunk.text, { titleFrom, maxTitleWords });
      if (title === '') problems.push({ id: chunk.id, code: 'missing-title', message: 'the chunk has no text to take a title from' });
      const phrases = extractRakeKeywords(chunk.text, { maxWords: 3 }).map((phrase) => phrase.text);
      const questions: string[] = [];
      const seen = new Set<string>();
      for (let i = 0; questions.length < questionCount && i < questionCount * 2 && phrases.length > 0; i += 1) {
        const a = phrases[i % phrases.length]!;
        const b = phrases[(i + 1) % phrases.length]!;
        const template = questionTemplates[i % questionTemplates.length]!;
        if (a === b && template.includes('{{b}}')) continue;
        const question = template.replaceAll('{{a}}', a).replaceAll('{{b}}', b);
        if (seen.has(question)) continue;
        seen.add(question);
        questions.push(question);
      }
      if (questions.length < questionCount) {
        problems.push({ id: chunk.id, code: 'count-mismatch', message: `only ${questions.length} of ${questionCount} questions: the chunk has ${phrases.length} key phrase(s)` });
      }
      return { chunk, title, questions, titleSource: 'baseline', method: OFFLINE_ANNOTATOR_METHOD, problems };
    },
  };
}
