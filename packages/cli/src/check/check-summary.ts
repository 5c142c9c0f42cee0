import type { DetectionSummary } from '@factkit/claim-query';

/**
 * The closing lines of `factkit check`'s text output: answers per label (abstained and failed apart), per mode, and the
 * mean factual precision over the answers that have one (n/a when none has), with the count of those without.
 * @example formatCheckSummary(summarizeDetections(results), { corpusName: 'corpus.jsonl', corpusSize: 12, seconds: 0.4 })
 */
export function formatCheckSummary(summary: DetectionSummary, run: { readonly corpusName: string; readonly corpusSize: number; readonly seconds: number }): string {
  const { labels, modes, factualPrecision } = summary;
  const corpus = run.corpusSize > 0 ? `${run.corpusName} (${run.corpusSize} passages)` : run.corpusName;
  const byLabel = [`hallucinated ${labels.hallucinated}`, `not-hallucinated ${labels['not-hallucinated']}`, `unverifiable ${labels.unverifiable}`, `abstained ${labels.abstained}`, `failed ${summary.failed}`];
  const precision =
    factualPrecision.mean === null
      ? `factual precision: n/a (no answer has a verifiable claim; ${factualPrecision.without} without)`
      : `factual precision: ${factualPrecision.mean.toFixed(3)} (mean over ${factualPrecision.responses} answer(s) with a verifiable claim; n/a for ${factualPrecision.without})`;
  return [`${summary.responses} answer(s) checked against ${corpus} in ${run.seconds.toFixed(1)} s: ${byLabel.join(', ')}`, `modes: corpus ${modes.corpus}, context ${modes.context}, reference ${modes.reference}`, precision].join('\n');
}
