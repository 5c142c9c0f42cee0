import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { buildAveritecReferences, computeAveritecEvidenceScore, tokenizeWordsNltk } from '../src/index.js';
import { linearSumAssignment } from '../src/matching/linear-sum-assignment.js';
import { closeTo, goldenSynonyms, readGoldenJson } from './golden.js';
describeWithData(['golden', 'averitec'], 'AVeriTeC golden', (_golden, root) => {
  interface Scored {
    pairwise_meteor: number[][];
    assignment: [number, number][];
    score: number;
  }
  interface Section {
    predictions: string[];
    references: string[];
    nltk_word_tokenize: Scored;
    whitespace_lower: Scored;
  }
  interface Item {
    claim_id: number | null;
    edge_case?: string;
    question_answer: Section;
    question_only?: Section;
  }
  const golden = readGoldenJson<{ items: Item[] }>('meteor/meteor_averitec_hungarian.json');
  const sections = golden.items.flatMap((item) => (['question_answer', 'question_only'] as const).filter((key) => item[key]).map((key) => [`${item.claim_id ?? item.edge_case}/${key}`, item[key]!] as const));
  const whitespaceLower = (text: string) =>
    text
      .toLowerCase()
      .split(/\s+/u)
      .filter((token) => token.length > 0);

  describe('AVeriTeC Hungarian METEOR vs the scorer (NLTK 3.8 + SciPy)', () => {
    it('has 16 items and 28 scored sections', () => {
      expect(golden.items.length).toBe(16);
      expect(sections.length).toBe(28);
    });

    it.each(sections)('%s: assignment and score from the golden pairwise matrices', (_name, section) => {
      for (const side of [section.nltk_word_tokenize, section.whitespace_lower]) {
        const { rows, columns, total } = linearSumAssignment(side.pairwise_meteor, { maximize: true });
        expect(rows.map((row, index) => [row, columns[index]])).toEqual(side.assignment);
        expect(closeTo(total * (1 / section.references.length), side.score)).toBe(true);
      }
    });

    it.each(sections)('%s: full pipeline (tokenizer + METEOR + Hungarian) with the golden synonym table', (_name, section) => {
      for (const [tokenize, side] of [
        [tokenizeWordsNltk, section.nltk_word_tokenize],
        [whitespaceLower, section.whitespace_lower],
      ] as const) {
        const result = computeAveritecEvidenceScore(section.predictions, section.references, { tokenize, synonyms: goldenSynonyms });
        result.pairwise.forEach((row, i) =>
          row.forEach((value, j) => {
            if (!closeTo(value, side.pairwise_meteor[i]![j]!)) throw new Error(`[${i}][${j}] got ${value}, NLTK ${side.pairwise_meteor[i]![j]}`);
          }),
        );
        expect(result.assignment.map((pair) => [...pair])).toEqual(side.assignment);
        expect(closeTo(result.score, side.score)).toBe(true);
      }
    });

    it('builds the references from the AVeriTeC dev set exactly as the scorer', () => {
      const dev = new Map(
        readFileSync(join(root, 'averitec', 'dev.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => {
            const row = JSON.parse(line) as { claim_id: number; questions: Parameters<typeof buildAveritecReferences>[0] };
            return [row.claim_id, row] as const;
          }),
      );
      let checked = 0;
      for (const item of golden.items) {
        if (item.claim_id === null) continue;
        const built = buildAveritecReferences(dev.get(item.claim_id)!.questions);
        expect(built.questionAnswer).toEqual(item.question_answer.references);
        expect(built.questionOnly).toEqual(item.question_only!.references);
        checked++;
      }
      expect(checked).toBe(12);
    });
  });
});
