// The replies of the in-process scripted server that stands in for the models offline (plumbing only: the numbers
// of a scripted run say nothing about JointCQ).
import { draftClaimsAndQueries, formatClaimQueryResponse } from '@factkit/claim-query';

/** The scripted server: drafted claims in the Chinese response template, word-overlap verdicts. */
export function scriptedHalluQaReply(prompt: string, callIndex: number): string {
  if (prompt.includes('[参考资料]') || prompt.includes('[Reference]')) {
    const claim = prompt.split(/\[陈述\]\n|\[Claim\]\n/)[1]?.split('\n')[0] ?? '';
    const reference = prompt.split(/\[参考资料\]\n|\[Reference\]\n/)[1] ?? '';
    const chars = [...new Set(claim.replace(/[\s，。、：；！？“”《》（）]/gu, ''))];
    const shared = chars.filter((c) => reference.includes(c)).length / Math.max(1, chars.length);
    return shared > 0.6 ? '正确' : shared > 0.3 ? '幻觉' : '无关';
  }
  const question = prompt.split(/\[问题\]\n|\[Question\]\n/)[1]?.split(/\n\[回答\]|\n\[Answer\]/)[0] ?? '';
  const answer = prompt.split(/\[回答\]\n|\[Answer\]\n/)[1] ?? '';
  const draft = draftClaimsAndQueries({ question, answer, language: 'zh' });
  let reply = formatClaimQueryResponse(draft.pairs, 'zh');
  if (callIndex % 5 === 4) reply = `好的，以下是结果：\n${reply.replace('[结束]', '').replace(/^(\d+) /gmu, '- ')}`;
  return reply;
}

/**
 * The training-data pipeline's synthesiser and evaluator: drafted claims, RAKE queries, "No" for claims opening with a
 * pronoun and for queries over 12 words, else "Yes".
 */
export function scriptedTrainingReply(prompt: string): string {
  if (/\[(Claims|陈述)\]$/u.test(prompt)) {
    const zh = prompt.endsWith('[陈述]');
    const question = prompt
      .split(zh ? '[问题]\n' : '[Question]\n')
      .at(-1)!
      .split('\n')[0]!;
    const answer = prompt
      .split(zh ? '[回答]\n' : '[Answer]\n')
      .at(-1)!
      .replace(/\n\[(Claims|陈述)\]$/u, '');
    const claims = draftClaimsAndQueries({ question, answer, language: zh ? 'zh' : 'en' }).pairs.map((pair) => pair.claim.text);
    return claims.length > 0 ? claims.join('\n') : zh ? '无陈述' : 'No claims.';
  }
  if (/\[(Query|查询)\]$/u.test(prompt)) {
    const claim = prompt
      .split(/\[Claim\]\n|\[陈述\]\n/u)
      .at(-1)!
      .replace(/\n\[(Query|查询)\]$/u, '');
    // The drafter's query for the claim: its RAKE keyphrases.
    return /[\u4e00-\u9fff]/u.test(claim) ? claim.replace(/[。，]/gu, '') : (draftClaimsAndQueries({ question: '', answer: claim, language: 'en' }).pairs[0]?.query.text ?? claim);
  }
  const zh = prompt.includes('### 评估标准');
  const yes = zh ? '是' : 'Yes';
  const no = zh ? '否' : 'No';
  if (prompt.includes('Decontextualization:') || prompt.includes('去上下文文化：')) {
    const claim = prompt.split(/\[Claim\(s\)\]\n|\[陈述\]\n/u).at(-1)!;
    return /^(It|He|She|They|This|它|他|她|该)/u.test(claim) ? no : yes;
  }
  if (prompt.includes('Conciseness:') || prompt.includes('简洁性：')) {
    const query = prompt.split(/\[Query\]\n|\[查询\]\n/u).at(-1)!;
    return query.split(/\s+/u).length > 12 || query.length > 40 ? no : yes;
  }
  return yes;
}
