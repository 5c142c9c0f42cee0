// The detection table of fever-eval: response- and sentence-level accuracy and F1, with unverifiable answers counted as
// not hallucinated ("overall", paper Tables 2/3) and left out ("verifiable", Tables 11/12).
import type { DetectionEvaluation } from '@factkit/claim-query';
import { percent } from './shared.js';

export interface DetectionRow {
  readonly system: string;
  readonly evaluation: DetectionEvaluation;
  readonly failed: number;
}

const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

/** The Markdown table, one row per system. */
export function formatDetectionTable(rows: readonly DetectionRow[]): string {
  const lines = [line(['system', 'resp Acc', 'resp F1', 'resp N unv.', 'resp Acc (verif.)', 'resp F1 (verif.)', 'sent Acc', 'sent F1', 'sent N unv.', 'sent Acc (verif.)', 'sent F1 (verif.)']), line(Array.from({ length: 11 }, () => '---'))];
  for (const { system, evaluation } of rows) {
    const r = evaluation.response;
    const s = evaluation.sentence!;
    lines.push(
      line([
        system,
        percent(r.overall.accuracy),
        percent(r.overall.f1),
        String(r.nUnverifiable),
        `${percent(r.verifiableOnly.accuracy)} (n=${r.verifiableOnly.n})`,
        percent(r.verifiableOnly.f1),
        percent(s.overall.accuracy),
        percent(s.overall.f1),
        String(s.nUnverifiable),
        `${percent(s.verifiableOnly.accuracy)} (n=${s.verifiableOnly.n})`,
        percent(s.verifiableOnly.f1),
      ]),
    );
  }
  return lines.join('\n');
}
