import type { ItemProblem } from '@factkit/core';
import type { CheckedClaim } from '../types.js';
import type { DetectionResult } from './detect-hallucinations.js';
import { formatFactualPrecision } from './summarize-detections.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

const MARK: Record<string, string> = { correct: '✔ correct', hallucinated: '✘ HALLUCINATED', unverifiable: '? unverifiable' };

function formatClaim(claim: CheckedClaim, snippetsPerClaim: number): string[] {
  const verdict = claim.verdict;
  const label = verdict.status === 'failed' ? `FAILED (${verdict.problems.map((p) => p.message).join('; ')})` : (MARK[verdict.label ?? ''] ?? String(verdict.label));
  const out = [`    claim: ${claim.claim.text}`, `      query:   ${claim.query?.text ?? '(none)'}`, `      verdict: ${label}${verdict.reason ? ` (${verdict.reason})` : ''}`];
  if (verdict.why) out.push(`      why:     ${verdict.why}`);
  if (verdict.reasoning) out.push(`      reasoning: ${verdict.reasoning.slice(0, 300)}`);
  // The top snippets and every deciding one, each with its rank and, for NLI verifiers, its label and probability.
  const shown = claim.evidence.map((evidence, index) => ({ evidence, index, judged: verdict.snippets?.find((s) => s.rank === index + 1) })).filter(({ index, judged }) => index < snippetsPerClaim || judged?.decisive);
  for (const { evidence, index, judged } of shown) {
    const judgement = judged?.label === undefined ? '' : ` ${judged.label ?? 'unreadable'}${judged.score === undefined ? '' : ` ${judged.score.toFixed(2)}`}${judged.decisive ? ' (deciding)' : ''}`;
    out.push(`      #${index + 1}${judgement} - ${evidence.text.slice(0, 160)}  <${evidence.origin.source?.url ?? evidence.origin.documentId}>`);
  }
  if (claim.evidence.length > shown.length) out.push(`      (+${claim.evidence.length - shown.length} more snippets in the report)`);
  return out;
}

/**
 * Plain-text rendering of one detection result, the whole chain: question, answer, pipeline, response label, then per
 * sentence its label and claims → query → verdict → the top `snippetsPerClaim` snippets with their sources.
 * @example console.log(formatDetectionText(result))
 */
/**
 * Why a result has no response label: the item's refusal problem if a model step refused, else its failed call
 * (generator or verifier); undefined when no such problem is recorded. For reports, so they never compare codes.
 */
export function failureReason(result: Pick<DetectionResult, 'problems'>): ItemProblem<ClaimQueryProblemCode> | undefined {
  return result.problems.find((p) => p.code === 'refusal') ?? result.problems.find((p) => p.code === 'call-failed' || p.code === 'verifier-failed');
}

export function formatDetectionText(result: DetectionResult, snippetsPerClaim = 2): string {
  const lines: string[] = [];
  lines.push(`[${result.id}] Question: ${result.question || '(none)'}`);
  lines.push(`Answer:   ${result.answer}`);
  lines.push(`Pipeline: ${result.generatorId} → ${result.retrieverId} → ${result.verifierId}`);
  lines.push(`Mode:     ${result.mode}${result.mode === 'corpus' ? '' : ` (claims verified against the row's ${result.mode}, no corpus search)`}`);
  if (result.responseLabel === 'abstained') {
    lines.push(`Response: ABSTAINED (the answer ${result.abstention?.kind === 'refusal' ? 'refuses' : 'abstains'}: "${result.abstention?.sentence ?? ''}"; no claim checked, counted apart)`);
  } else if (result.responseLabel) {
    lines.push(`Response: ${result.responseLabel.toUpperCase()} · factual precision ${formatFactualPrecision(result)}`);
  } else {
    const why = failureReason(result);
    lines.push(`Response: FAILED at ${result.failedStage ?? result.status}${why ? ` (${why.code}: ${why.message})` : ''}`);
  }
  for (const sentence of result.sentences) {
    lines.push(`  [S${sentence.index + 1}] ${sentence.label}${sentence.incomplete ? ' (incomplete)' : ''}: ${sentence.text}`);
    for (const claim of result.claims.filter((c) => c.sentenceIndex === sentence.index)) lines.push(...formatClaim(claim, snippetsPerClaim));
  }
  const unaligned = result.claims.filter((c) => c.sentenceIndex === undefined);
  if (unaligned.length > 0) {
    lines.push('  [not aligned to a sentence]');
    for (const claim of unaligned) lines.push(...formatClaim(claim, snippetsPerClaim));
  }
  if (result.noClaims) lines.push('  No claims to check.');
  if (result.problems.length > 0) lines.push(`  Problems: ${result.problems.map((p) => `${p.code} (${p.message})`).join('; ')}`);
  return `${lines.join('\n')}\n`;
}
