// Hand-written replies that negate or hedge labels (plus plain ones), with what each really says. `null` means the
// reply commits to no single label: any label read from it is wrong. Written before running the parser on them.

export const NLI_OPTIONS = {
  labels: ['entailment', 'neutral', 'contradiction'],
  aliases: { 蕴含: 'entailment', 矛盾: 'contradiction', 中立: 'neutral' },
} as const;
export const FEVER_OPTIONS = {
  labels: ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'],
  aliases: { supported: 'SUPPORTS', refuted: 'REFUTES', 'not enough information': 'NOT ENOUGH INFO', nei: 'NOT ENOUGH INFO' },
} as const;
export const AVERITEC_OPTIONS = {
  labels: ['Supported', 'Refuted', 'Not Enough Evidence', 'Conflicting Evidence/Cherrypicking'],
  aliases: { supports: 'Supported', refutes: 'Refuted', cherrypicking: 'Conflicting Evidence/Cherrypicking', 'conflicting evidence': 'Conflicting Evidence/Cherrypicking' },
} as const;
export const YES_NO_OPTIONS = { labels: ['yes', 'no'], negations: { yes: 'no', no: 'yes' } } as const;
export const PASS_FAIL_OPTIONS = { labels: ['pass', 'fail'], negations: { pass: 'fail', fail: 'pass' } } as const;

export type CorpusEntry = readonly [reply: string, expected: string | null];

export const LABEL_CORPUS: Readonly<Record<string, { options: { labels: readonly string[] }; entries: readonly CorpusEntry[] }>> = {
  nli: {
    options: NLI_OPTIONS,
    entries: [
      ['Entailment', 'entailment'],
      ['**Label:** Neutral.', 'neutral'],
      ['## Answer\n\n> Contradiction', 'contradiction'],
      ['The answer is: entailment. The premise restates the hypothesis.', 'entailment'],
      ['Entailment is not correct here; it is neutral', 'neutral'],
      ['entailment or neutral', null],
      ['Entailment or neutral, hard to say.', null],
      ['The hypothesis cannot be entailed from the premise.', null],
      ['It is not entailment.', null],
      ['Not entailment.', null],
      ['This is not a contradiction, and it is not entailment either.', null],
      ['It is neither entailment nor contradiction: neutral', 'neutral'],
      ['Neither entailment nor contradiction.', null],
      ['Not contradiction but entailment.', 'entailment'],
      ['The premise does not contradict the hypothesis; the relation is entailment.', 'entailment'],
      ['I would say neutral rather than contradiction.', 'neutral'],
      ['Could be entailment.', null],
      ['Possibly contradiction, possibly neutral.', null],
      ['Is it entailment? I am not sure.', null],
      ['Entailment? No. Contradiction.', 'contradiction'],
      // Self-corrections (issue 21 §5): an explicit later correction wins.
      ['Entailment. Wait, no: neutral.', 'neutral'],
      ['Entailment. Wait, no, neutral.', 'neutral'],
      ['Contradiction. Actually, entailment.', 'entailment'],
      ['Label: neutral. On second thought, contradiction.', 'contradiction'],
      ['Entailment, wait — contradiction.', 'contradiction'],
      ['Neutral. Correction: entailment.', 'entailment'],
      ['Entailment. Scratch that, it is neutral.', 'neutral'],
      ['Entailment. Wait, it is not neutral either.', 'entailment'],
      ['Entailment. Wait, the premise says so explicitly.', 'entailment'],
      ['Contradiction. Actually, it could be neutral or entailment.', null],
      ['Entailment. The premise actually restates the hypothesis.', 'entailment'],
      ['Neutral. I mean contradiction.', 'contradiction'],
      ['entailment, neutral, or contradiction', null],
      ['Label: non-entailment', null],
      ['The hypothesis is not entailed; it contradicts the premise.', 'contradiction'],
      ['Contradiction is wrong here. Entailment.', 'entailment'],
      ['Neutral is incorrect; the premise entails the hypothesis.', 'entailment'],
      ['It does not entail it.', null],
      ['不是蕴含', null],
      ['答案：矛盾', 'contradiction'],
      ['蕴含或中立', null],
      ['The relation is unclear: maybe neutral.', null],
      ['Final answer: **NEUTRAL**', 'neutral'],
      // Here and in the FEVER list: found by adversarial probing after the first version (the 'contradicts nothing', 'wrong to say', 'cannot
      // determine whether … or …' and struck-through replies were read wrong, then fixed; the others were already right):
      ['The hypothesis contradicts nothing in the premise; entailment.', 'entailment'],
      ["I'd say it's not neutral but contradiction.", 'contradiction'],
      ['Entailment would be incorrect.', null],
      ['Let me reason. The premise mentions a cat, the hypothesis a dog.\n\nFinal answer: contradiction', 'contradiction'],
    ],
  },
  fever: {
    options: FEVER_OPTIONS,
    entries: [
      ['SUPPORTS', 'SUPPORTS'],
      ['Verdict: REFUTES', 'REFUTES'],
      ['NOT REFUTES', null],
      ['not supported', null],
      ['The claim is not supported by the evidence; it is refuted.', 'REFUTES'],
      ['neither supports nor refutes', null],
      ['Not enough info.', 'NOT ENOUGH INFO'],
      ['There is not enough information to refute the claim.', 'NOT ENOUGH INFO'],
      ['SUPPORTS or REFUTES', null],
      ['Supported? No.', null],
      ['Refutes is not right; SUPPORTS.', 'SUPPORTS'],
      ['SUPPORTS. Wait, no: REFUTES.', 'REFUTES'],
      ['Verdict: REFUTES. Actually, not enough info.', 'NOT ENOUGH INFO'],
      ['REFUTES. On reflection, the evidence supports it.', 'SUPPORTS'],
      ['SUPPORTS. Wait, I was wrong: it is not supported.', null],
      ['The evidence does not refute the claim.', null],
      ['Unsupported.', null],
      ['It cannot be refuted, nor supported.', null],
      ['It would be wrong to say SUPPORTS.', null],
      ['**Verdict:** ~~SUPPORTS~~ REFUTES', 'REFUTES'],
      ['I cannot determine whether the claim is supported or refuted.', null],
      ['SUPPORTS is false', null],
    ],
  },
  averitec: {
    options: AVERITEC_OPTIONS,
    entries: [
      ['Conflicting Evidence/Cherrypicking', 'Conflicting Evidence/Cherrypicking'],
      ['**Not Enough Evidence**', 'Not Enough Evidence'],
      ['Supported: no', null],
      ['The claim is not refuted. Not Enough Evidence.', 'Not Enough Evidence'],
      ['Refuted or Conflicting Evidence/Cherrypicking', null],
      ['Not supported.', null],
      ['Label - Refuted', 'Refuted'],
      ['The verdict cannot be Supported; it is Refuted.', 'Refuted'],
      ['Cherrypicking', 'Conflicting Evidence/Cherrypicking'],
      ['Possibly supported.', null],
      // Adversarial probing, second round (both read wrong, then fixed):
      ['Supported in part; Conflicting Evidence/Cherrypicking overall.', 'Conflicting Evidence/Cherrypicking'],
      ['Refuted is too strong; Not Enough Evidence.', 'Not Enough Evidence'],
    ],
  },
  yesNo: {
    options: YES_NO_OPTIONS,
    entries: [
      ['Yes', 'yes'],
      ['No.', 'no'],
      ['**No**, the passage does not support the claim.', 'no'],
      ['Yes, it supports the claim.', 'yes'],
      ['yes or no', null],
      ['Maybe yes.', null],
      ['Answer: no', 'no'],
    ],
  },
  passFail: {
    options: PASS_FAIL_OPTIONS,
    entries: [
      ['PASS', 'pass'],
      ['Fail.', 'fail'],
      ['The answer does not pass.', 'fail'],
      ['It did not fail.', 'pass'],
      ['pass or fail', null],
      ['Result: passed', 'pass'],
      ['Criterion 1: fail', 'fail'],
    ],
  },
};
