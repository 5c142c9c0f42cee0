import type { LabelParseOptions, NliLabel } from '@factkit/core';
import { NLI_LABELS } from '@factkit/core';

/**
 * How the LLM NLI judge reads a reply with core `parseLabel`: the three NLI labels (inflections such as "entailed",
 * "contradicts" are built into parseLabel) plus Chinese labels. A negated or hedged label ("not entailed",
 * "entailment or neutral") is never read as that label: it gives an `ambiguous-label` problem unless the reply commits
 * to another label.
 */
export const NLI_LABEL_PARSE_OPTIONS: LabelParseOptions<NliLabel> = {
  labels: NLI_LABELS,
  aliases: { 蕴含: 'entailment', 蘊含: 'entailment', 矛盾: 'contradiction', 中立: 'neutral', 中性: 'neutral' },
};
