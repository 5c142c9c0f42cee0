/**
 * The verdict prediction prompt of the paper (Figure A2). Placeholders: `{{labels}}` (comma-separated label names),
 * `{{claim}}`, and `{{evidence}}` (the top-k texts as "Evidence 1: …" blocks).
 */
export const VERDICT_PROMPT = `Your task is to predict the verdict of a claim based on the provided evidence. Select one of the following labels: {{labels}}. Generate only the label without additional explanation or content.

Claim: {{claim}}

{{evidence}}

Label:`;

/** Every prompt of the package, the one public way to read them. */
export const NLI_MATCH_PROMPTS = Object.freeze({
  /** Figure A2: verdict prediction from a claim and its evidence. */
  verdict: VERDICT_PROMPT,
});

/** Renders retrieved evidence as the paper's "Evidence 1: …" blocks separated by blank lines. */
export function renderVerdictEvidence(evidence: readonly string[]): string {
  return evidence.map((text, index) => `Evidence ${index + 1}: ${text}`).join('\n\n');
}

/** Step name recorded in the provenance of every verdict call. */
export const VERDICT_STEP = 'nli-match.verdict';
