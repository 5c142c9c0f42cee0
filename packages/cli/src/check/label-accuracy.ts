import type { DetectionResult } from '@factkit/claim-query';
import type { ItemProblem } from '@factkit/core';

/** The truth of one answer sentence: `correct` or `hallucinated`, and the WordNet synset (`wn:n:<offset>`) that decides it. */
export interface SentenceLabel {
  /** The answer's id in the input file. */
  readonly id: string;
  /** The sentence, exactly as it appears in the answer. */
  readonly sentence: string;
  readonly label: 'correct' | 'hallucinated';
  /** The document id of the evidence that decides the label. */
  readonly synset?: string;
  /** Line in the labels file (for messages). */
  readonly line: number;
}

/** Sentence accuracy of `factkit check` against a labelled file. A sentence counts as flagged when its verdict is 'hallucinated'. */
export interface LabelAccuracy {
  /** Labelled sentences matched to a decided sentence verdict. */
  readonly scored: number;
  /** Correct verdicts: hallucinated sentences flagged + correct sentences not flagged. */
  readonly right: number;
  /** right / scored; absent when nothing was scored. */
  readonly accuracy?: number;
  /** Hallucinated sentences flagged, of all hallucinated ones scored. */
  readonly hallucinated: { readonly flagged: number; readonly total: number };
  /** Correct sentences not flagged, of all correct ones scored. */
  readonly correct: { readonly kept: number; readonly total: number };
  /** Scored sentences the pipeline called 'unverifiable' (not flagged, so right for a correct sentence, wrong for a hallucinated one). */
  readonly unverifiable: number;
  /** Labels that match no checked sentence, whose answer abstained, or whose verdict is undecided (failed model calls); not scored. */
  readonly problems: ItemProblem[];
}

/** Reads `{"id", "sentence", "label": "correct"|"hallucinated", "synset"?}` lines; bad lines become problems. */
export function parseSentenceLabels(text: string, source: string): { labels: SentenceLabel[]; problems: ItemProblem[] } {
  const labels: SentenceLabel[] = [];
  const problems: ItemProblem[] = [];
  text.split('\n').forEach((raw, position) => {
    if (raw.trim() === '') return;
    const line = position + 1;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      problems.push({ code: 'bad-json', message: `${source}:${line}: not valid JSON` });
      return;
    }
    const { id, sentence, label, synset } = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    if (typeof id !== 'string' || typeof sentence !== 'string' || (label !== 'correct' && label !== 'hallucinated')) {
      problems.push({ code: 'bad-label', message: `${source}:${line}: needs string "id" and "sentence" and "label" "correct" or "hallucinated"` });
      return;
    }
    labels.push({ id, sentence, label, line, ...(typeof synset === 'string' ? { synset } : {}) });
  });
  return { labels, problems };
}

/** Scores the sentence verdicts of `results` against `labels` (matched by answer id and the sentence's trimmed text). */
export function scoreSentenceLabels(results: readonly DetectionResult[], labels: readonly SentenceLabel[]): LabelAccuracy {
  const verdicts = new Map<string, { label: string; incomplete: boolean }>();
  const abstained = new Set(results.filter((result) => result.responseLabel === 'abstained').map((result) => result.id));
  for (const result of results) {
    if (result.status === 'failed') continue;
    for (const sentence of result.sentences) verdicts.set(`${result.id}\u0000${sentence.text.trim()}`, { label: sentence.label, incomplete: sentence.incomplete === true });
  }
  let right = 0;
  let unverifiable = 0;
  const hallucinated = { flagged: 0, total: 0 };
  const correct = { kept: 0, total: 0 };
  const problems: ItemProblem[] = [];
  for (const label of labels) {
    const verdict = verdicts.get(`${label.id}\u0000${label.sentence.trim()}`);
    if (verdict === undefined && abstained.has(label.id)) {
      problems.push({ code: 'abstained', message: `labels line ${label.line}: answer "${label.id}" abstained (no claim checked): not scored` });
      continue;
    }
    if (verdict === undefined) {
      problems.push({ code: 'unmatched-label', message: `labels line ${label.line}: answer "${label.id}" has no checked sentence "${label.sentence}"` });
      continue;
    }
    if (verdict.incomplete) {
      problems.push({ code: 'undecided', message: `labels line ${label.line}: the verdict of "${label.sentence}" is undecided (failed model calls)` });
      continue;
    }
    const flagged = verdict.label === 'hallucinated';
    if (verdict.label === 'unverifiable') unverifiable += 1;
    if (label.label === 'hallucinated') {
      hallucinated.total += 1;
      if (flagged) hallucinated.flagged += 1;
    } else {
      correct.total += 1;
      if (!flagged) correct.kept += 1;
    }
    if (flagged === (label.label === 'hallucinated')) right += 1;
  }
  const scored = hallucinated.total + correct.total;
  return { scored, right, ...(scored > 0 ? { accuracy: right / scored } : {}), hallucinated, correct, unverifiable, problems };
}

/** One line: 'sentence accuracy on demo/labels.jsonl: 0.600 (12/20); hallucinated flagged 4/8; correct not flagged 8/12; 5 unverifiable'. */
export function formatLabelAccuracy(accuracy: LabelAccuracy, source: string): string {
  if (accuracy.accuracy === undefined) return `sentence accuracy on ${source}: no labelled sentence could be scored (${accuracy.problems.length} unmatched or undecided)`;
  const parts = [
    `sentence accuracy on ${source}: ${accuracy.accuracy.toFixed(3)} (${accuracy.right}/${accuracy.scored})`,
    `hallucinated flagged ${accuracy.hallucinated.flagged}/${accuracy.hallucinated.total}`,
    `correct not flagged ${accuracy.correct.kept}/${accuracy.correct.total}`,
    `${accuracy.unverifiable} called unverifiable`,
  ];
  if (accuracy.problems.length > 0) parts.push(`${accuracy.problems.length} label(s) not scored`);
  return parts.join('; ');
}
