import { describe, expect, it } from 'vitest';
import { majorityLabel } from './create-llm-verifier.js';
import { parseVerifierReply } from './parse-verifier-reply.js';

describe('parseVerifierReply', () => {
  it.each([
    ['Correct', 'correct'],
    ['Hallucination', 'hallucinated'],
    ['Irrelevant', 'unverifiable'],
    ['3. Irrelevant', 'unverifiable'],
    ['正确', 'correct'],
    ['幻觉', 'hallucinated'],
    ['无关', 'unverifiable'],
    ['答案：无关。', 'unverifiable'],
    ['The claim is hallucinated.', 'hallucinated'],
  ])('%j -> %s', (reply, label) => {
    expect(parseVerifierReply(reply).label).toBe(label);
  });
  it.each(['Not correct', '不正确', 'Correct or Irrelevant', '', 'I cannot tell.'])('never reads %j as a label', (reply) => {
    const parsed = parseVerifierReply(reply);
    expect(parsed.label).toBeUndefined();
    expect(parsed.problems.length).toBeGreaterThan(0);
  });
  it('keeps the <think> reasoning and reads the answer after it', () => {
    expect(parseVerifierReply('<think>It says correct? No, 1600.</think>\nHallucination')).toEqual({
      option: 'Hallucination',
      label: 'hallucinated',
      reasoning: 'It says correct? No, 1600.',
      problems: [],
    });
  });
});

describe('majorityLabel', () => {
  it('majority of readable labels; ties are reported', () => {
    expect(majorityLabel(['correct', 'hallucinated', 'correct', undefined]).label).toBe('correct');
    const tie = majorityLabel(['correct', 'hallucinated']);
    expect(tie.label).toBeUndefined();
    expect(tie.problems[0]?.code).toBe('tied-votes');
    expect(majorityLabel([undefined]).label).toBeUndefined();
  });
});
