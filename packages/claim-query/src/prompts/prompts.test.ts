import { describe, expect, it } from 'vitest';
import { createPaperPromptTemplate, renderPaperPrompt } from './paper-template.js';
import { CLAIM_CRITERION_TEXT_ZH, CLAIM_FILTER_PROMPT_EN, CLAIM_QUERY_PROMPT_EN, CLAIM_QUERY_PROMPT_ZH, CLAIM_SYNTHESIS_PROMPT_EN, CLAIM_QUERY_PROMPTS, QUERY_FILTER_PROMPT_ZH, VERIFIER_PROMPT_EN, VERIFIER_PROMPT_ZH } from './prompts.js';

// Lines typed by hand from the paper's tables (not read from the paper file, which CI does not have).
describe('paper prompts (spot checks against Tables 13-26)', () => {
  it('Table 21 rules and input block', () => {
    expect(CLAIM_QUERY_PROMPT_EN).toContain('5. If no claims meeting the above criteria exist in the input, output "No claims."\n');
    expect(CLAIM_QUERY_PROMPT_EN).toContain('3. If there is nothing to query, output "No query".\n');
    expect(CLAIM_QUERY_PROMPT_EN.endsWith('### Input\n[Question]\n{question}\n[Answer]\n{answer}')).toBe(true);
  });
  it('Table 22 rules', () => {
    expect(CLAIM_QUERY_PROMPT_ZH).toContain('5. 当输入中不存在符合上述标准的陈述时，输出“无陈述”。');
    expect(CLAIM_QUERY_PROMPT_ZH).toContain('3. 若无待查询的内容，直接输出“无查询”。');
    expect(CLAIM_QUERY_PROMPT_ZH.startsWith('### 任务\n给定问题和回答作为输入，你的任务是提取所有的陈述，然后为每条陈述生成一条搜索引擎查询，用于协助对陈述进行事实核查。\n\n### 任务规则')).toBe(true);
  });
  it('Tables 23/24 verifier options', () => {
    expect(VERIFIER_PROMPT_EN).toContain('3. Irrelevant: The reference is irrelevant to the claim, thus does not contain enough information to determine the factuality of the claim. Only use this option when absolutely necessary.');
    expect(VERIFIER_PROMPT_ZH).toContain('2. 幻觉：参考资料与陈述相关，但并不支持陈述。');
    expect(VERIFIER_PROMPT_ZH.endsWith('[陈述]\n{claim}\n[参考资料]\n{reference}')).toBe(true);
  });
  it('Table 13 keeps curly quotes; Table 17/18/20 keep the paper wording', () => {
    expect(CLAIM_SYNTHESIS_PROMPT_EN).toContain('output “No claims.”');
    expect(CLAIM_FILTER_PROMPT_EN).toContain('If the claim(s) meet the criterion, respond with “Yes”; otherwise, respond with “No”.');
    expect(CLAIM_CRITERION_TEXT_ZH.decontextualization).toBe('去上下文文化：每条陈述应在不需要额外上下文的情况下可以被理解。');
    expect(QUERY_FILTER_PROMPT_ZH).toContain('如果查询满足以上标准，请回答“是”；否则，请回答“否”。不允许输出任何额外解释。');
  });
  it('no trailing spaces and no markdown heading artifacts', () => {
    for (const set of Object.values(CLAIM_QUERY_PROMPTS)) {
      for (const text of [set.claimSynthesis, set.querySynthesis, set.claimFilter, set.queryFilter, set.claimQuery, set.verifier, set.llmJudgeBaseline]) {
        expect(text).not.toMatch(/[ \t]\n/);
        expect(text).not.toContain('####');
      }
    }
  });
  it('placeholders per template', () => {
    expect(createPaperPromptTemplate(CLAIM_QUERY_PROMPTS.en.claimSynthesis).variables).toEqual(['examples', 'question', 'answer']);
    expect(createPaperPromptTemplate(CLAIM_QUERY_PROMPTS.zh.querySynthesis).variables).toEqual(['examples', 'claim']);
    expect(createPaperPromptTemplate(CLAIM_QUERY_PROMPTS.en.claimFilter).variables).toEqual(['criterion', 'question', 'answer', 'claims']);
    expect(createPaperPromptTemplate(CLAIM_QUERY_PROMPTS.zh.queryFilter).variables).toEqual(['criterion', 'claim', 'query']);
    expect(createPaperPromptTemplate(CLAIM_QUERY_PROMPTS.en.verifier).variables).toEqual(['claim', 'reference']);
    expect(createPaperPromptTemplate(CLAIM_QUERY_PROMPTS.zh.claimQueryResponse).variables).toEqual(['claims', 'queries']);
  });
});

describe('renderPaperPrompt', () => {
  it('fills in one pass (a value containing {claim} is not substituted again)', () => {
    expect(renderPaperPrompt('[Claim]\n{claim}\n[Reference]\n{reference}', { claim: 'uses {reference}', reference: 'R' })).toBe('[Claim]\nuses {reference}\n[Reference]\nR');
  });
  it('names missing variables', () => {
    expect(() => renderPaperPrompt(VERIFIER_PROMPT_EN, { claim: 'x' })).toThrow(/"reference"/);
  });
});
