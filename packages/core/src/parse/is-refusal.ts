import { stripInvisible } from './reply-text.js';

// A refusal is judged on the opening of the text only: passages may quote "I cannot…" further on.
const REFUSAL_WINDOW = 300;

// What follows a refusal verb: an object or the end of the clause ("I can't help with that", "I cannot provide
// information"), never a title's continuation ("I Can't Help Myself (Sugar Pie Honey Bunch) is…").
const HELP = String.raw`(?:help|assist)\s*(?:with|you\s+with|you\s+(?:on|in)|on\s+this|here|[.,!:;]|$)`;
const OTHER_VERB = String.raw`(?:provide|write|create|generate|produce|fulfil|fulfill|comply|answer|complete|draft|compose|engage|share|offer|verify|respond|continue|discuss|participate|assist|providing|writing|creating|generating|producing|helping|assisting|answering|sharing|drafting|composing|fulfilling|engaging|discussing)\b\s*(?:with|that|this|these|it|such|your|the|a|an|any|content|information|details|[.,!:;]|$)`;
const CANNOT = String.raw`(?:can(?:not|'t|t)|could\s*(?:not|n't|nt)|(?:won't|will\s+not)\s+be\s+able\s+to|am\s+(?:unable|not\s+able)\s+to|'m\s+(?:unable|not\s+able)\s+to|won't|will\s+not|must\s+(?:decline|refuse)\s+to|(?:do\s+not|don't)\s+(?:feel\s+comfortable|think\s+I\s+(?:can|should))(?:\s+\w+){0,2}|am\s+not\s+(?:comfortable|permitted|allowed)(?:\s+\w+){0,2}|'m\s+not\s+(?:comfortable|permitted|allowed)(?:\s+\w+){0,2})`;
// "I'm Sorry is a 1960 song…", "I Can't Make You Love Me is a song…": a title followed by what it is.
const TITLE_SENTENCE = /^[^.!?\n]{1,120}?\s(?:is|was|are|were)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}(?:song|single|album|record|film|movie|novel|book|play|poem|track|musical|series|episode|game|documentary|story|ballad|hit|EP|LP)\b/iu;

const REFUSAL_PATTERNS: readonly RegExp[] = [
  // "I'm sorry, but…", "I am sorry. I…", "I'm afraid I can't…" (not "I'm Sorry is a 1960 song").
  /^(?:I'm|I\s+am)\s+(?:so\s+|very\s+|really\s+|truly\s+)?(?:sorry|afraid)(?:\s*[,.!:;—–-]|\s+(?:but|I|to\s+say|that\s+I|for\s+any|however|as\s+an|it|that(?:'s|\s+is)\s+not|this\s+is\s+not))/iu,
  /^I\s+apologi[sz]e(?:\s*[,.!:;]|\s+(?:but|for|if|I))/iu,
  /^(?:sorry|apologies|my\s+apologies|unfortunately)\b[,.!:]?\s+(?:but\s+)?(?:I|as\s+an\s+AI|this|that|it)\b/iu,
  new RegExp(String.raw`^(?:[^.!?\n]{0,80}?[,.!:;]\s*)?(?:but\s+)?I\s*${CANNOT}\s+(?:${HELP}|${OTHER_VERB})`, 'iu'),
  /^I\s+(?:must|have\s+to)\s+(?:decline|refuse|respectfully\s+decline)\b/iu,
  // "I do not feel comfortable generating…", "I'm not comfortable with writing…".
  /^I\s*(?:do\s+not|don't|am\s+not|'m\s+not)\s+(?:feel\s+)?comfortable\s+(?:with\s+)?\w+ing\b/iu,
  /^(?:As\s+an?\s+(?:AI|artificial\s+intelligence)(?:\s+(?:language\s+)?model|\s+assistant|\s+developed\s+by\b[^,]{0,40})?|As\s+a\s+(?:large\s+)?language\s+model)\s*[,.]/iu,
  // Chinese: "抱歉，我无法…", "很抱歉…", "对不起，我不能…", "我不能提供…", "作为一个AI语言模型…".
  /^(?:很|非常|十分)?(?:抱歉|对不起|對不起|不好意思)\s*[，,。.!！：:]?\s*(?:但是?\s*)?(?:我|作为|作為)/u,
  /^(?:很|非常)?抱歉[，,。!！]/u,
  /^(?:[^。！？\n]{0,40}[，,。])?\s*我(?:无法|不能|無法|没有办法|沒有辦法|不可以|不会|不會)(?:为您|為您|帮您|幫您|向您)?(?:提供|帮助|幫助|协助|協助|回答|写|寫|撰写|撰寫|生成|完成|创作|創作|满足|滿足|给出|給出|编写|編寫|参与|參與)/u,
  /^作为(?:一个|一名)?(?:AI|人工智能)(?:语言模型|助手|模型)?\s*[，,]/iu,
  /^作為(?:一個|一名)?(?:AI|人工智慧|人工智能)(?:語言模型|助手|模型)?\s*[，,]/iu,
];

const OPENING_NOISE = /^[\s*_#>"'“”‘’`]+/u;

/**
 * True when the opening of `text` reads as a refusal, in English or Chinese: "I'm sorry, but I can't…",
 * "As an AI language model, …", "I cannot help with that", "抱歉，我无法…", "我不能提供…". Judged on the first 300
 * characters only (a passage may quote a refusal later), and only when the refusal phrase is followed by what a
 * refusal says next, so real passages such as "I'm Sorry is a 1960 song…" or "I Can't Help Myself (Sugar Pie Honey
 * Bunch) is…" are not refusals. Pure, never throws, linear time.
 */
export function isRefusal(text: string): boolean {
  if (typeof text !== 'string') return false;
  const opening = stripInvisible(text.slice(0, REFUSAL_WINDOW * 2).normalize('NFKC'))
    .replace(/[’‘ʼ`´]/gu, "'")
    .replace(OPENING_NOISE, '')
    .slice(0, REFUSAL_WINDOW);
  if (TITLE_SENTENCE.test(opening)) return false;
  return REFUSAL_PATTERNS.some((pattern) => pattern.test(opening));
}
