/**
 * The paper's prompts (FastTrack, Appendix G), character for character, with `{{name}}` placeholders where the figures
 * show `[cluster texts]`, `[query]` and `[indexed candidate training data]`. Exported so users can override them.
 */

/** Figure 3: keyword assignment for one cluster. Placeholder: `{{clusterTexts}}` (one sentence per line). */
export const KEYWORD_PROMPT =
  'Analyze the following group of sentences and identify 5 to 10 of phrases that capture the main topics, focusing on the key entities.\n\n' +
  'Group of sentences: {{clusterTexts}}\n\n' +
  'Output the keywords in the following format: #keywords: your keywords here. [note: Extract 5 to 10 keywords only. The keywords should capture the main topic and seperated by comma.]';

/**
 * Figure 4: supportiveness evaluation (FTRACE-TREx version, a general-knowledge example). Placeholders: `{{query}}`,
 * `{{texts}}` (the batch rendered by `renderCandidateTexts`: `Text 1: …` lines).
 */
export const SUPPORT_PROMPT =
  'I will give you a claim and multiple texts. Carefully evaluate each text, check if the text supports the claim.\n\n' +
  'For example,\n\n' +
  'Fact: Member of the Scottish Parliament is a legal term in Scotland.\n\n' +
  'Group of Texts:\n\n' +
  'Text 1: Dennis Robertson is a Scottish politician, and has been an Member of the Scottish Parliament (MSP) for Aberdeenshire West since 2011, after defeating the Liberal Democrat incumbent, Mike Rumbles, by a majority of 4,112 votes.\n\n' +
  'Text 2: The West Lothian question, also known as the English question, refers to whether MPs from Northern Ireland, Scotland and Wales, sitting in the House of Commons of the United Kingdom, should be able to vote on matters that affect only England, while MPs from England are unable to vote on matters that have been devolved to the Northern Ireland Assembly, the Scottish Parliament and the Welsh Assembly.\n\n' +
  '#analysis: A "legal term" refers to a term or expression that is associated with or used in the formal context of a particular country. Text1 mentions that "Member of the Scottish Parliament (MSP)" is in Scotland; because we can infer that member of the scottish parliament is used in the formal political context of Scotland, it implicitly establishes that Member of the Scottish Parliament is a legal term in Scotland. Text2 mentions the Scottish Parliament but does not state that "Member of the Scottish Parliament" is a legal term used within the context of the Scotland.\n\n' +
  '#scores: 1, 0\n\n' +
  'Fact: {{query}}\n' +
  'Group of Texts: {{texts}}\n\n' +
  'Now evaluate each text carefully in the group and output in the following format:\n\n' +
  '#analysis: your analysis here.\n' +
  '#scores: your scores here. (score each text 0 or 1 according to the analysis.)';

/**
 * Figure 5: supportiveness evaluation (VITATRACE version, a contrastive numeric example). Same placeholders as
 * `SUPPORT_PROMPT`. The example's `#scores: 1, 0, 0` lists three scores for four texts exactly as printed in the paper.
 */
export const SUPPORT_PROMPT_CONTRASTIVE =
  'I will give you a claim and multiple texts. Carefully evaluate each text, check if the text supports the claim.\n\n' +
  'For example,\n\n' +
  'Claim: Black Mass earned less than $ 43.6 million in North America as of 22 April 2020.\n\n' +
  'Group of Texts:\n' +
  'Text 1: Black Mass has grossed less than $ 42.6 million in North America as of 22 April 2020.\n' +
  'Text 2: Black Mass has grossed less than $ 42.6 million in North America as of 12 April 2020.\n' +
  'Text 3: Black Mass has grossed more than $ 42.6 million in North America as of 22 April 2020.\n' +
  'Text 4: Black Mass has grossed more than $ 43.6 million in North America as of 22 April 2020.\n\n' +
  '#analysis:\n' +
  'Text 1: States that "Black Mass has grossed less than $42.6 million in North America as of 22 April 2020." This text supports the claim because if it grossed less than $42.6 million, it also grossed less than $43.6 million.\n' +
  'Text 2: States that "Black Mass has grossed less than $42.6 million in North America as of 12 April 2020." This text does not directly support or refute the claim because it provides information as of 12 April. Without specific information on the movie\'s earnings trends or events that might have affected its box office performance between 12 April and 22 April 2020, it is impossible to determine whether the gross was less than $43.6 million as of 22 April.\n' +
  'Text 3: States that "Black Mass has grossed more than $42.6 million in North America as of 22 April 2020." This text does not directly support or refute the claim because it does not provide enough information to determine whether the gross was less than $43.6 million. It only indicates that the gross was more than $42.6 million, which could still be less than $43.6 million.\n' +
  'Text 4: States that "Black Mass has grossed more than $43.6 million in North America as of 22 April 2020." This text does not support the claim because it directly contradicts it, indicating that the gross was more than $43.6 million.\n\n' +
  '#scores: 1, 0, 0\n\n' +
  'Fact: {{query}}\n' +
  'Group of Texts: {{texts}}\n\n' +
  'Now evaluate each text carefully in the group and output in the following format:\n\n' +
  '#analysis: your analysis here.\n' +
  '#scores: your scores here. (score each text 0 or 1 according to the analysis.)';

/** Every prompt of the package (Appendix G), the one public way to read them: pass one back as a judge's or labeller's `prompt` to override it. */
export const FASTTRACK_PROMPTS = Object.freeze({
  /** Figure 3: keyword assignment for one cluster. */
  keyword: KEYWORD_PROMPT,
  /** Figure 4: supportiveness evaluation. */
  support: SUPPORT_PROMPT,
  /** The contrastive variant of Figure 4. */
  supportContrastive: SUPPORT_PROMPT_CONTRASTIVE,
});

/** Renders a batch of candidate texts as the prompts' indexed list: `Text 1: …\nText 2: …` (newlines inside a text become spaces). */
export function renderCandidateTexts(texts: readonly string[]): string {
  return texts.map((text, index) => `Text ${index + 1}: ${text.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}

/** Renders a cluster's texts for `KEYWORD_PROMPT`: one per line (newlines inside a text become spaces). */
export function renderClusterTexts(texts: readonly string[]): string {
  return texts.map((text) => text.replace(/\s*\n\s*/g, ' ')).join('\n');
}
