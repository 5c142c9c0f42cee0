import { isRefusal, segmentSentences } from '@factkit/core';

/** Why an answer counts as an abstention: the sentence that abstains and which rule matched it. */
export interface Abstention {
  /** The abstaining sentence, as it appears in the answer. */
  readonly sentence: string;
  /** 'abstention' ("I don't know", "I'm not sure", "I have no information about…") or 'refusal' (core's `isRefusal`). */
  readonly kind: 'abstention' | 'refusal';
}

// What may follow an abstention phrase and keep the sentence an abstention: nothing, an object ("the answer to that
// question", "about the 1950 final", "who won") with no clause boundary (comma, semicolon, "but", "though") after it.
// A tail that opens a clause of its own ("…, but X is Y", "…why anyone doubts it; X is Y") is a hedge, not an abstention.
const TAIL = String.raw`(?:\s+(?!why\b)(?!.*(?:[,;:—–]|\b(?:but|though|although|however|yet|still|except)\b))[^.!?]*)?\s*[.!?…]*`;
const HEDGE_FREE_END = `${TAIL}$`;

// Verbs of not knowing, in the first person: "I don't know", "I do not know", "I'm not sure", "I am not certain",
// "I have no idea", "I'm unsure", "I can't say", "I cannot answer that", "I'm not aware of", "I couldn't find".
const NOT_KNOWING = [
  String.raw`I\s*(?:do\s+not|don't|dont|really\s+don't|honestly\s+don't)\s+(?:really\s+)?know`,
  String.raw`I\s*(?:am|'m|m)\s+(?:not\s+(?:sure|certain|aware)|unsure|uncertain)`,
  String.raw`I\s*(?:have|'ve)\s+no\s+(?:idea|clue|(?:reliable\s+|specific\s+|available\s+|such\s+)?(?:information|knowledge|data|record|details))`,
  String.raw`I\s*(?:do\s+not|don't)\s+have\s+(?:any\s+|enough\s+|reliable\s+|specific\s+|access\s+to\s+)?(?:information|knowledge|data|details|records?|an\s+answer|the\s+answer|real-time\s+\w+)`,
  String.raw`I\s*(?:can(?:not|'t|t)|could\s*(?:not|n't))\s+(?:say|tell|answer|be\s+sure|confirm|determine|find|recall|remember|verify|provide\s+(?:an?\s+|the\s+)?(?:answer|information))`,
  String.raw`I\s*(?:am|'m)\s+(?:unable|not\s+able)\s+to\s+(?:say|tell|answer|confirm|determine|find|recall|verify)`,
  String.raw`I\s*(?:did\s+not|didn't)\s+find`,
  // "There is no information about X" (not "There is no data showing that X", which is a claim).
  String.raw`(?:there\s+is|there's)\s+no\s+(?:reliable\s+|available\s+|public(?:ly\s+available)?\s+)?information(?=\s+(?:about|on|regarding|available|that\s+I\s+(?:can|could))\b|\s*[.!]*$)`,
];

// Abstentions that are a whole sentence with nothing after them ("Unknown." but not "Unknown Pleasures is an album").
const BARE_ABSTENTION = /^(?:no\s+idea|not\s+sure|unsure|unknown|no\s+comment|dunno|hard\s+to\s+say|(?:I\s+)?(?:don't|do\s+not)\s+know)[.!?…]*$/iu;

const ABSTENTION_SENTENCE = new RegExp(
  String.raw`^(?:(?:(?:I'm|I\s+am)\s+(?:so\s+|very\s+|really\s+)?sorry|sorry|honestly|unfortunately|well|hmm|to\s+be\s+honest)\s*[,.!]?\s*(?:but\s+)?)?(?:${NOT_KNOWING.join('|')})\b${HEDGE_FREE_END}`,
  'iu',
);

// Chinese: "我不知道", "我不确定", "我无法回答", "不清楚", "没有相关信息" as the whole sentence.
const ABSTENTION_SENTENCE_ZH = /^(?:抱歉|对不起|不好意思)?[，,]?\s*(?:我)?(?:不知道|不确定|不清楚|无法回答|無法回答|不太清楚|不太确定|没有相关信息|沒有相關資訊|没有这方面的信息)(?:[^，,；;但]*)[。！!？?…]*$/u;

// Sentences that carry no claim beside an abstention: apologies, pointers to other sources, offers of help, questions.
const FILLER_SENTENCE = new RegExp(
  [
    String.raw`^(?:I'm|I\s+am)?\s*(?:so\s+|very\s+|really\s+)?(?:sorry|apologies|my\s+apologies)[.!]*$`,
    String.raw`^I\s+apologi[sz]e(?:\s+for\s+[^,;.!?]+)?[.!]*$`,
    String.raw`^(?:you\s+(?:may|might|could|should|can)\s+(?:want\s+to\s+)?|please\s+|I\s+(?:would\s+)?(?:recommend|suggest)\s+(?:that\s+you\s+)?)(?:check|consult|look\s+(?:it\s+)?up|search|refer\s+to|verify|ask|contact)\b[^.!]*[.!]*$`,
    String.raw`^(?:is\s+there\s+anything\s+else|let\s+me\s+know\s+if|feel\s+free\s+to|hope\s+this\s+helps)\b[^.!]*[.!?]*$`,
  ].join('|'),
  'iu',
);

function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[’‘ʼ`´]/gu, "'")
    .replace(/^[\s*_#>"'“”]+|[\s*_"'“”]+$/gu, '')
    .replace(/\s+/gu, ' ');
}

// A title in Title Case ("I Don't Know How to Love Him is a song…"): not the speaker abstaining.
const TITLE_CASE_OPENING = /^I\s+(?:[A-Z][a-z']+\s+){2,}/u;

function abstains(sentence: string): Abstention['kind'] | undefined {
  const text = normalise(sentence);
  if (TITLE_CASE_OPENING.test(text)) return undefined;
  if (BARE_ABSTENTION.test(text) || ABSTENTION_SENTENCE.test(text) || ABSTENTION_SENTENCE_ZH.test(text)) return 'abstention';
  if (isRefusal(text)) return 'refusal';
  return undefined;
}

/**
 * Whether an answer as a whole abstains (FActScore's abstention: "I don't know", "I'm not sure", "I cannot answer
 * that", "I have no information about …", a refusal per core's `isRefusal`, or their Chinese forms) — and so makes no
 * claim to check. A classical rule set: the answer abstains when at least one sentence is an abstention and every other
 * sentence is filler (an apology, a pointer to another source, an offer of help, a question). A hedged or negated form
 * that goes on to say something is not an abstention: "I don't know why anyone doubts it, but X is Y", "I'm not sure,
 * but I think it is Paris", "I don't know. It is Paris." all make a claim. Pure, never throws; `undefined` when the
 * answer does not abstain.
 * @example detectAbstention("I'm not sure.") // { sentence: "I'm not sure.", kind: 'abstention' }
 * @example detectAbstention("I don't know why anyone doubts it, but Canberra is the capital.") // undefined
 */
export function detectAbstention(answer: string): Abstention | undefined {
  if (typeof answer !== 'string' || answer.trim() === '') return undefined;
  // A refusal is judged on the whole opening, as core does ("I'm sorry, but I can't help with that. …").
  const sentences = segmentSentences(answer).map((span) => span.text);
  let found: Abstention | undefined;
  for (const sentence of sentences) {
    const kind = abstains(sentence);
    if (kind) {
      found ??= { sentence, kind };
      continue;
    }
    const text = normalise(sentence);
    if (text === '' || FILLER_SENTENCE.test(text) || /\?$/u.test(text)) continue;
    return undefined;
  }
  return found;
}
