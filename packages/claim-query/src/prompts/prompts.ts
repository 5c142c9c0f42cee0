/**
 * The JointCQ paper's prompt templates (Xu et al., Tables 13–26), English and Chinese, as exported constants.
 *
 * Transcription rules (see docs/claim-query.md, "Prompts"): every word, punctuation mark and quote character is the
 * paper's (curly “…” where the table prints curly quotes, straight "…" where it prints straight ones). Placeholders keep
 * the paper's single-brace form (`{question}`, `{answer}`, `{claims}`, `{claim}`, `{query}`, `{reference}`,
 * `{examples}`). The markdown conversion of the paper put a blank line after every line, printed section headings as
 * `#### ### Task` and added two trailing spaces to some lines; we use the authors' released layout instead
 * (pku0xff/JointCQ `detect.py` / `extract_and_query.py`): `### Task` headings, one newline inside a section, a blank
 * line between sections, no trailing spaces.
 */

/** Prompt language: the paper ships every prompt in English and Chinese. */
export type PromptLanguage = 'en' | 'zh';

export const PROMPT_LANGUAGES: readonly PromptLanguage[] = ['en', 'zh'];

// ---------------------------------------------------------------------------------------------------------------
// Tables 13 / 14: claim synthesis (two-step baseline, §3.2.2; 3-shot, temperature 0.9)

/** Table 13: English prompt template of claim synthesis. Placeholders: `{examples}`, `{question}`, `{answer}`. */
export const CLAIM_SYNTHESIS_PROMPT_EN = `### Task
Given a pair of question and answer as input, your task is to extract all claims.

### Task Rules
When extracting claims, strictly follow these rules:
1. Claims must be factual statements that can be verified or refuted. Exclude subjective opinions, emotional expressions, and vague judgments.
2. Each claim must be semantically complete and independently understandable without relying on context.
3. Avoid ambiguous pronouns in claims. Use specific nouns for clarity.
4. Extract and output all qualifying claims, with each claim on a separate line.
5. If no claims meeting the above criteria exist in the input, output “No claims.”
6. Strictly follow the specified format in the response, without adding extra explanations or unrelated content.

### Examples
{examples}

### Input
[Question]
{question}
[Answer]
{answer}
[Claims]`;

/** Table 14: Chinese prompt template of claim synthesis. Placeholders: `{examples}`, `{question}`, `{answer}`. */
export const CLAIM_SYNTHESIS_PROMPT_ZH = `### 任务
给定一对问题和回答作为输入，你的任务是提取所有的陈述。

### 任务规则
提取陈述时请严格遵循以下规则：
1. 陈述必须是可核实或驳斥的事实性声明。排除主观意见、情绪表达和模糊判断。
2. 每条陈述必须语义完整，不依赖上下文即可独立理解其含义。
3. 陈述中禁止使用指代不明的代词，必须使用具体名词表述。
4. 必须提取并输出所有符合条件的陈述，每条陈述独占一行。
5. 当输入中不存在符合上述标准的陈述时，输出“无陈述”。
6. 必须严格按照指定格式回复，不得添加其他内容，不得添加多余的解释说明。

### 示例
{examples}

### 输入
[问题]
{question}
[回答]
{answer}
[陈述]`;

// ---------------------------------------------------------------------------------------------------------------
// Tables 15 / 16: query synthesis (two-step baseline, §3.2.3)

/** Table 15: English prompt template of query synthesis. Placeholders: `{examples}`, `{claim}`. */
export const QUERY_SYNTHESIS_PROMPT_EN = `### Task
Given a claim, your task is to generate a search engine query to help fact-check the claim.

### Task Rules
When generating the query, strictly follow these rules:
1. The query should be concise and clear, specifically targeting the claim to be verified.
2. The query should be applicable to search engines and can help users obtain valid information.
3. Always output a query.
4. If there is nothing to query, output “No query”.
5. You must strictly follow the specified format. Do not add any extra content or explanations.

### Examples
{examples}

### Input
[Claim]
{claim}
[Query]`;

/** Table 16: Chinese prompt template of query synthesis. Placeholders: `{examples}`, `{claim}`. */
export const QUERY_SYNTHESIS_PROMPT_ZH = `### 任务
给定一条陈述，你的任务是生成一条搜索引擎查询，用于协助对该陈述进行事实核查。

### 任务规则
生成查询时请严格遵循以下规则：
1. 查询应当简洁明确，对待验证的陈述具有针对性。
2. 查询能够应用于搜索引擎的搜索，帮助用户获取有效信息。
3. 始终输出一条查询语句。
4. 若无待查询的内容，直接输出“无查询”。
5. 必须严格按照指定格式回复，不得添加其他内容，不得添加多余的解释说明。

### 示例
{examples}

### 输入
[陈述]
{claim}
[查询]`;

// ---------------------------------------------------------------------------------------------------------------
// Tables 17 / 18: claim filtering. The table prints the three criteria joined by "OR": one prompt per criterion.

/** The claim criteria of §3.3.1. */
export type ClaimCriterion = 'entailment' | 'coverage' | 'decontextualization';
/** The query criteria of §3.3.2. */
export type QueryCriterion = 'relevance' | 'conciseness' | 'usability';
export type Criterion = ClaimCriterion | QueryCriterion;

export const CLAIM_CRITERIA: readonly ClaimCriterion[] = ['entailment', 'coverage', 'decontextualization'];
export const QUERY_CRITERIA: readonly QueryCriterion[] = ['relevance', 'conciseness', 'usability'];

/** Table 17, criterion paragraphs (English), exactly as printed between the "OR" lines. */
export const CLAIM_CRITERION_TEXT_EN: Readonly<Record<ClaimCriterion, string>> = {
  entailment: 'Entailment: The content of the claims should be fully supported by the source text. Review each statement point by point to ensure that every statement is fully supported.',
  coverage: 'Coverage: The extracted claims should capture all the verifiable factual information in the source text. Evaluate all claims collectively against the question and answer to verify full coverage.',
  decontextualization: 'Decontextualization: The claim should be understandable on its own, without requiring additional context.',
};

/** Table 18, criterion paragraphs (Chinese), exactly as printed (including the paper's "去上下文文化"). */
export const CLAIM_CRITERION_TEXT_ZH: Readonly<Record<ClaimCriterion, string>> = {
  entailment: '蕴含性：陈述的内容应完全由原文支持。逐条展开检查陈述，确保每条陈述都能被支持。',
  coverage: '覆盖性：提取出的这组陈述应涵盖原文中所有可验证的事实信息。视所有陈述为一个整体并与问答进行比较以确保覆盖性。',
  decontextualization: '去上下文文化：每条陈述应在不需要额外上下文的情况下可以被理解。',
};

/**
 * Table 17: English prompt template of claim filtering, with `{criterion}` standing for the one criterion paragraph
 * evaluated (Appendix A.2: "Each evaluation assesses only one criterion at a time"). Other placeholders: `{question}`,
 * `{answer}`, `{claims}`.
 */
export const CLAIM_FILTER_PROMPT_EN = `### Task
You are provided with a question, its answer, a set of claims (a claim) extracted from the QA pair. Your task is to assess whether the claim(s) satisfy the specific criterion.

### Evaluation Criteria
The claim(s) should meet the following criterion:
{criterion}

If the claim(s) meet the criterion, respond with “Yes”; otherwise, respond with “No”.

### Input
[Question]
{question}
[Answer]
{answer}
[Claim(s)]
{claims}`;

/** Table 18: Chinese prompt template of claim filtering; placeholders as in {@link CLAIM_FILTER_PROMPT_EN}. */
export const CLAIM_FILTER_PROMPT_ZH = `### 任务
给定一个问题、其答案、一组(条)从问答对中提取的陈述，你的任务是评估这些(条)陈述是否满足特定的标准。

### 评估标准
陈述应当满足以下标准：
{criterion}

如果这些(条)陈述符合标准，请回答“是”；否则，请回答“否”。

### 输入
[问题]
{question}
[回答]
{answer}
[陈述]
{claims}`;

// ---------------------------------------------------------------------------------------------------------------
// Tables 19 / 20: query filtering

/** Table 19, criterion paragraphs (English). */
export const QUERY_CRITERION_TEXT_EN: Readonly<Record<QueryCriterion, string>> = {
  relevance: 'Relevance: The query directly relates to the claim, addressing its content, implications, or underlying assumptions.',
  conciseness: 'Conciseness: The query should be clear and focused on the core information, avoiding multiple complex ideas or detailed descriptions in one query.',
  usability: 'Usability: The query should use natural, fluent, and easily readable language that can yield relevant and accurate results from Google Search.',
};

/** Table 20, criterion paragraphs (Chinese). */
export const QUERY_CRITERION_TEXT_ZH: Readonly<Record<QueryCriterion, string>> = {
  relevance: '相关性：提问需紧扣陈述本身，涉及其内容、含义或背后的假设。',
  conciseness: '简洁性：查询应简明扼要，聚焦核心信息，避免在一个查询中包含多个复杂概念或细节描述。',
  usability: '可用性：查询应使用自然、流畅且易读的语言，以便从Google搜索中获得相关且准确的结果。',
};

/** Table 19: English prompt template of query filtering. Placeholders: `{criterion}`, `{claim}`, `{query}`. */
export const QUERY_FILTER_PROMPT_EN = `### Task
You are given a claim and a query intended for Google Search. Your task is to evaluate whether the query satisfies the specific criterion.

### Evaluation Criteria
The query is considered helpful if it meets the following criterion:
{criterion}

If the query meets the criterion, respond with “Yes”; otherwise, respond with “No”. No additional explanation is allowed.

### Input
[Claim]
{claim}
[Query]
{query}`;

/** Table 20: Chinese prompt template of query filtering. Placeholders: `{criterion}`, `{claim}`, `{query}`. */
export const QUERY_FILTER_PROMPT_ZH = `### 任务
给定一条陈述和一条用于Google搜索的查询，你的任务是评估该查询是否满足特定的标准。

### 评估标准
如果查询符合以下标准，则认为它是有帮助的：
{criterion}

如果查询满足以上标准，请回答“是”；否则，请回答“否”。不允许输出任何额外解释。

### 输入
[陈述]
{claim}
[查询]
{query}`;

// ---------------------------------------------------------------------------------------------------------------
// Tables 21 / 22: Claim-Query Generator (prompt above the table's "---", response template below it)

/** Table 21 (prompt part): English prompt of the Claim-Query Generator. Placeholders: `{question}`, `{answer}`. */
export const CLAIM_QUERY_PROMPT_EN = `### Task
Given a question and an answer as input, your task is to extract all claims, and generate a search engine query for each claim to help fact-check the claims.

### Task Rules
When extracting claims, strictly follow these rules:
1. Claims must be factual statements that can be verified or refuted. Exclude subjective opinions, emotional expressions, and vague judgments.
2. Each claim must be semantically complete and independently understandable without relying on context.
3. Avoid ambiguous pronouns in claims. Use specific nouns for clarity.
4. Extract and output all qualifying claims, with each claim on a separate line.
5. If no claims meeting the above criteria exist in the input, output "No claims."

When generating the queries, strictly follow these rules:
1. The queries should be concise and clear, specifically targeting the claims to be verified.
2. The queries should be applicable to search engines and can help users obtain valid information.
3. If there is nothing to query, output "No query".

### Input
[Question]
{question}
[Answer]
{answer}`;

/** Table 22 (prompt part): Chinese prompt of the Claim-Query Generator. Placeholders: `{question}`, `{answer}`. */
export const CLAIM_QUERY_PROMPT_ZH = `### 任务
给定问题和回答作为输入，你的任务是提取所有的陈述，然后为每条陈述生成一条搜索引擎查询，用于协助对陈述进行事实核查。

### 任务规则
提取陈述时请严格遵循以下规则：
1. 陈述必须是可核实或驳斥的事实性声明。排除主观意见、情绪表达和模糊判断。
2. 每条陈述必须语义完整，不依赖上下文即可独立理解其含义。
3. 陈述中禁止使用指代不明的代词，必须使用具体名词表述。
4. 必须提取并输出所有符合条件的陈述，每条陈述独占一行。
5. 当输入中不存在符合上述标准的陈述时，输出“无陈述”。

生成查询时请严格遵循以下规则：
1. 查询应当简洁明确，对待验证的陈述具有针对性。
2. 查询能够应用于搜索引擎的搜索，帮助用户获取有效信息。
3. 若无待查询的内容，直接输出“无查询”。

### 输入
[问题]
{question}
[回答]
{answer}`;

/** Table 21 (response part): English response template. Placeholders: `{claims}`, `{queries}` (one per line). */
export const CLAIM_QUERY_RESPONSE_TEMPLATE_EN = `[Claims]
{claims}
[Queries]
{queries}
[End]`;

/** Table 22 (response part): Chinese response template. Placeholders: `{claims}`, `{queries}`. */
export const CLAIM_QUERY_RESPONSE_TEMPLATE_ZH = `[陈述]
{claims}
[查询]
{queries}
[结束]`;

/** Section markers of the response templates (Tables 21/22). */
export const RESPONSE_MARKERS: Readonly<Record<PromptLanguage, { claims: string; queries: string; end: string }>> = {
  en: { claims: '[Claims]', queries: '[Queries]', end: '[End]' },
  zh: { claims: '[陈述]', queries: '[查询]', end: '[结束]' },
};

/** The "nothing found" answers the prompts ask for (Tables 13–16, 21, 22). */
export const NO_CLAIMS_TEXT: Readonly<Record<PromptLanguage, string>> = { en: 'No claims.', zh: '无陈述' };
export const NO_QUERY_TEXT: Readonly<Record<PromptLanguage, string>> = { en: 'No query', zh: '无查询' };

// ---------------------------------------------------------------------------------------------------------------
// Tables 23 / 24: verifier (Appendix B: temperature 0, "Irrelevant" -> Unverifiable)

/** Table 23: English prompt template of the verifier. Placeholders: `{claim}`, `{reference}`. */
export const VERIFIER_PROMPT_EN = `### Task
Given a claim and related reference searched by a query as input, your task is to determine whether the claim is valid based on the reference.

### Evaluation Criteria
Please make your judgment based on the following criteria and choose one of the three options:
1. Correct: The reference supports the claim.
2. Hallucination: The reference is relevant to the claim, but does not support the claim.
3. Irrelevant: The reference is irrelevant to the claim, thus does not contain enough information to determine the factuality of the claim. Only use this option when absolutely necessary.

Provide only one option as the output. No additional explanation is allowed.

### Input
[Claim]
{claim}
[Reference]
{reference}`;

/** Table 24: Chinese prompt template of the verifier. Placeholders: `{claim}`, `{reference}`. */
export const VERIFIER_PROMPT_ZH = `### 任务
给定一条陈述以及由查询检索到相关的参考资料作为输入，你的任务是根据参考资料判断陈述是否成立。

### 判断标准
请依据以下标准进行判断，输出三个选项之一：
1. 正确：参考资料能够支持陈述。
2. 幻觉：参考资料与陈述相关，但并不支持陈述。
3. 无关：参考资料与陈述内容无关，信息不足，无法判断陈述的真实性。非必要不使用此选项。

只输出一个选项，不允许有任何额外解释。

### 输入
[陈述]
{claim}
[参考资料]
{reference}`;

// ---------------------------------------------------------------------------------------------------------------
// Tables 25 / 26: response-level LLM judge baselines (Appendix C.2)

/** Table 25: English prompt template of the LLM baselines. Placeholders: `{question}`, `{answer}`. */
export const LLM_JUDGE_BASELINE_PROMPT_EN = `I want you act as an answer judge. Given a question and an answer, your objective is to determine if the provided answer contains non-factual or hallucinated information.
The response you give should be “Yes” or “No”.

### Question
{question}
### Answer
{answer}`;

/** Table 26: Chinese prompt template of the LLM baselines. Placeholders: `{question}`, `{answer}`. */
export const LLM_JUDGE_BASELINE_PROMPT_ZH = `我希望你充当一个答案评审员。给定一个问题和一个答案，你的任务是判断所提供的答案中是否包含虚假或幻觉的信息。
你的回复应该为“是”或“否”。

### 问题
{question}
### 答案
{answer}`;

/** The system message the authors send with the generator prompt (pku0xff/JointCQ `extract_and_query.py`), both languages. */
export const JOINTCQ_GENERATOR_SYSTEM_PROMPT = 'You are a helpful, respectful and honest assistant.';

/** Every prompt by language, for lookup and override. */
export interface ClaimQueryPromptSet {
  /** The system message sent with `claimQuery` by the JointCQ generator. */
  readonly generatorSystem: string;
  readonly claimSynthesis: string;
  readonly querySynthesis: string;
  readonly claimFilter: string;
  readonly claimCriteria: Readonly<Record<ClaimCriterion, string>>;
  readonly queryFilter: string;
  readonly queryCriteria: Readonly<Record<QueryCriterion, string>>;
  readonly claimQuery: string;
  readonly claimQueryResponse: string;
  readonly verifier: string;
  readonly llmJudgeBaseline: string;
}

/** The one public map of the package's prompts (Tables 13–26 and the generator's system message), by language. */
export const CLAIM_QUERY_PROMPTS: Readonly<Record<PromptLanguage, ClaimQueryPromptSet>> = {
  en: {
    generatorSystem: JOINTCQ_GENERATOR_SYSTEM_PROMPT,
    claimSynthesis: CLAIM_SYNTHESIS_PROMPT_EN,
    querySynthesis: QUERY_SYNTHESIS_PROMPT_EN,
    claimFilter: CLAIM_FILTER_PROMPT_EN,
    claimCriteria: CLAIM_CRITERION_TEXT_EN,
    queryFilter: QUERY_FILTER_PROMPT_EN,
    queryCriteria: QUERY_CRITERION_TEXT_EN,
    claimQuery: CLAIM_QUERY_PROMPT_EN,
    claimQueryResponse: CLAIM_QUERY_RESPONSE_TEMPLATE_EN,
    verifier: VERIFIER_PROMPT_EN,
    llmJudgeBaseline: LLM_JUDGE_BASELINE_PROMPT_EN,
  },
  zh: {
    generatorSystem: JOINTCQ_GENERATOR_SYSTEM_PROMPT,
    claimSynthesis: CLAIM_SYNTHESIS_PROMPT_ZH,
    querySynthesis: QUERY_SYNTHESIS_PROMPT_ZH,
    claimFilter: CLAIM_FILTER_PROMPT_ZH,
    claimCriteria: CLAIM_CRITERION_TEXT_ZH,
    queryFilter: QUERY_FILTER_PROMPT_ZH,
    queryCriteria: QUERY_CRITERION_TEXT_ZH,
    claimQuery: CLAIM_QUERY_PROMPT_ZH,
    claimQueryResponse: CLAIM_QUERY_RESPONSE_TEMPLATE_ZH,
    verifier: VERIFIER_PROMPT_ZH,
    llmJudgeBaseline: LLM_JUDGE_BASELINE_PROMPT_ZH,
  },
};
