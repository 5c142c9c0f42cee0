import type { ClaimCounts, DetectionResult, ResponseLabel } from './detect-hallucinations.js';
import type { CheckMode } from './reference-passages.js';

/** A run of `detectHallucinations` in numbers: responses per label and per mode, failures, and factual precision. */
export interface DetectionSummary {
  readonly responses: number;
  /** Decided responses per label ('abstained' counted apart from the three segment labels). */
  readonly labels: Readonly<Record<ResponseLabel, number>>;
  /** Responses whose detection failed (a failed or refused model call): left out of every rate. */
  readonly failed: number;
  /** Responses per mode (RefChecker's settings). */
  readonly modes: Readonly<Record<CheckMode, number>>;
  /** Claims over the run per verdict. */
  readonly claims: ClaimCounts;
  readonly factualPrecision: {
    /** Mean over the responses that have a factual precision; null when none has. */
    readonly mean: number | null;
    /** Responses with a factual precision (at least one verifiable claim). */
    readonly responses: number;
    /** Responses without one (no verifiable claim, abstained or failed). */
    readonly without: number;
  };
}

/**
 * Sums up a run: labels (abstained apart), failures, modes, claim verdicts and the mean factual precision over the
 * responses that have one (FActScore averages over responses that did not abstain), with the count of those without.
 * @example summarizeDetections(results).factualPrecision.mean
 */
export function summarizeDetections(results: readonly DetectionResult[]): DetectionSummary {
  const labels: Record<ResponseLabel, number> = { hallucinated: 0, 'not-hallucinated': 0, unverifiable: 0, abstained: 0 };
  const modes: Record<CheckMode, number> = { corpus: 0, context: 0, reference: 0 };
  const claims = { supported: 0, hallucinated: 0, unverifiable: 0, failed: 0 };
  let failed = 0;
  let sum = 0;
  let withValue = 0;
  for (const result of results) {
    modes[result.mode] += 1;
    if (result.status === 'ok' && result.responseLabel) labels[result.responseLabel] += 1;
    else failed += 1;
    for (const key of Object.keys(claims) as (keyof ClaimCounts)[]) claims[key] += result.claimCounts[key];
    if (result.factualPrecision !== null) {
      sum += result.factualPrecision;
      withValue += 1;
    }
  }
  return {
    responses: results.length,
    labels,
    failed,
    modes,
    claims,
    factualPrecision: { mean: withValue === 0 ? null : sum / withValue, responses: withValue, without: results.length - withValue },
  };
}

/** A factual precision for people: '0.667 (2/3 verifiable claims supported, 1 unverifiable)' or 'n/a (no verifiable claim, 2 unverifiable)'. */
export function formatFactualPrecision(result: Pick<DetectionResult, 'factualPrecision' | 'claimCounts'>): string {
  const { supported, hallucinated, unverifiable } = result.claimCounts;
  const tail = `${unverifiable} unverifiable`;
  if (result.factualPrecision === null) return `n/a (no verifiable claim, ${tail})`;
  return `${result.factualPrecision.toFixed(3)} (${supported}/${supported + hallucinated} verifiable claims supported, ${tail})`;
}
