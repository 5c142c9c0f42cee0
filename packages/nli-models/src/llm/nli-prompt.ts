/**
 * The NLI prompt of the paper (Figure A3; from Wang et al., 2024b), with `{{premise}}` (gold evidence) and
 * `{{hypothesis}}` (LLM-generated sentence) placeholders. The answer follows "Label:".
 */
export const NLI_PROMPT = `Given the premise sentence S1, determine if the hypothesis sentence S2 is entailed or contradicted or neutral, by three labels: entailment, contradiction, neutral.
Respond only with one of the labels.
S1: {{premise}}
S2: {{hypothesis}}
Label:`;

/** Every prompt of the package, the one public way to read them. */
export const NLI_MODELS_PROMPTS = Object.freeze({
  /** Figure A3 (Yoon et al.): the LLM NLI judge's premise/hypothesis prompt. */
  nli: NLI_PROMPT,
});
