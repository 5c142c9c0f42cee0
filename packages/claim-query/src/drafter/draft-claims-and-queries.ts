import type { ItemProblem, SearchQuery } from '@factkit/core';
import { isRefusal, segmentSentences, tokenizeWords } from '@factkit/core';
import { detectPromptLanguage } from '../prompts/language.js';
import type { PromptLanguage } from '../prompts/prompts.js';
import type { GeneratedPair } from '../detect/generator.js';
import { claimIdOf } from '../detect/generator.js';
import { sentenceSubject, splitCompoundSentence } from './split-compound.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface DraftRequest {
  /** Keys the drafted claims: `<id>:c<k>`. @default '0' */
  readonly id?: string;
  readonly question: string;
  readonly answer: string;
  /** @default detected from the answer */
  readonly language?: PromptLanguage;
}

export interface DraftOptions {
  /** Keyphrases per query (RAKE-style scores). @default 3 */
  readonly maxKeyphrases?: number;
  /** Sentences longer than this many characters are cut at clause boundaries into separate claims. @default 400 */
  readonly maxClaimChars?: number;
  /**
   * Split compound English sentences into simple claims (coordinated clauses, "which/who" relatives; see
   * `splitCompoundSentence`) and, when the question names no subject, replace leading pronouns with the subject of the
   * answer's first sentence. Off by default: on the FEVER-lite validation responses it changed nothing measurable
   * (docs/claim-query.md). @default false
   */
  readonly splitCompound?: boolean;
}

/** A drafted claim (`<request id>:c<k>`) with its keyphrase query, always present, and the answer sentence it came from. */
export interface DraftedPair extends GeneratedPair {
  readonly query: SearchQuery;
  /** Index of the answer sentence the claim came from. */
  readonly sentenceIndex: number;
}

export interface DraftResult {
  readonly pairs: readonly DraftedPair[];
  readonly sentences: readonly { readonly text: string; readonly start: number; readonly end: number }[];
  /** The subject used to replace leading pronouns: the question's, else (with `splitCompound`) that of the answer's first sentence. */
  readonly subject?: string;
  /** Sentences skipped (`no-factual-content`, `question-sentence`, `refusal`) and other notes. */
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
}

// prettier-ignore
const STOP = new Set(
  (
    'a an the and or but if of in on at to for from by with about as into through during before after above below between ' +
    'is are was were be been being am do does did has have had having will would shall should can could may might must ' +
    "it its it's he him his she her they them their this that these those there here what which who whom whose when where why how " +
    'i me my we our you your not no nor so than too very also just only such both each few more most other some any all own same ' +
    'then once again further up down out off over under while because until whether yes'
  ).split(' '),
);

const EN_PRONOUN = /^(it|he|she|they|this|these|that|its|his|her|their)\b/i;
const ZH_PRONOUN = /^(它们|他们|她们|该|此|这|它|他|她)/u;
const SUBJECTIVE = /^(i think|i believe|in my opinion|i feel|personally|i'm not sure|i am not sure|i hope|我认为|我觉得|个人认为)/i;
const REFUSAL = /^(sorry|i'm sorry|i am sorry|i cannot|i can't|as an ai|抱歉|对不起|作为一个?人工智能|我无法|我不能)/i;
const ZH_QUESTION_WORDS = /(什么时候|是什么|什么|哪一年|哪一个|哪个|哪里|哪儿|哪位|为什么|怎么样|怎么|如何|多少|几|谁|何时|何地|吗|呢|吧|请问|是否)/gu;
const ZH_FUNCTION = /[的了着过吗呢吧啊呀是在和与及]/gu;

/** The question's subject: its longest run of capitalised words (EN) or the question minus interrogatives (ZH). */
export function findQuestionSubject(question: string, language: PromptLanguage): string | undefined {
  if (language === 'zh') {
    const stem = question
      .replace(ZH_QUESTION_WORDS, ' ')
      .replace(/[？?。！!，,、：:；;“”"'（）()是的在有了]/gu, ' ')
      .trim()
      .split(/\s+/u);
    // Chinese questions usually open with their topic ("鲁迅的代表作有哪些" → 鲁迅).
    const topic = stem.find((part) => part.length >= 2);
    return topic;
  }
  const runs = question.match(/(?:[A-Z][\p{L}\p{N}'’.-]*(?:\s+(?:of|the|de|la|von|van|and|&)\s+)?\s*)+/gu) ?? [];
  const candidates = runs
    .map((run) =>
      run
        .trim()
        .replace(/^(What|Which|Who|Whom|Whose|When|Where|Why|How|Is|Are|Was|Were|Do|Does|Did|Can|The)\s+/u, '')
        .trim(),
    )
    .filter((run) => run.length > 1 && !/^(What|Which|Who|When|Where|Why|How|I)$/u.test(run));
  const best = candidates.reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length > 1 ? best : undefined;
}

function decontextualise(sentence: string, subject: string | undefined, language: PromptLanguage): string {
  if (!subject) return sentence;
  if (language === 'zh') return sentence.replace(ZH_PRONOUN, subject);
  const match = EN_PRONOUN.exec(sentence);
  if (!match) return sentence;
  const pronoun = match[1]!.toLowerCase();
  const possessive = pronoun === 'its' || pronoun === 'his' || pronoun === 'her' || pronoun === 'their';
  // "That/This is" keeps the determiner reading; only pronoun subjects are replaced.
  if ((pronoun === 'this' || pronoun === 'that' || pronoun === 'these') && !/^\w+\s+(is|was|are|were|has|had)\b/i.test(sentence)) return sentence;
  return `${possessive ? `${subject}'s` : subject}${sentence.slice(match[0].length)}`;
}

/** RAKE (Rose et al., 2010): candidate phrases between stopwords/punctuation, scored by summed word degree/frequency. */
export function extractKeyphrases(text: string, maxPhrases = 3): string[] {
  const phrases: string[][] = [];
  let current: string[] = [];
  for (const token of text.match(/[\p{L}\p{N}'’-]+|[^\s\p{L}\p{N}'’-]/gu) ?? []) {
    const word = token.replace(/^['’-]+|['’-]+$/gu, '');
    if (!word || !/[\p{L}\p{N}]/u.test(word) || STOP.has(word.toLowerCase())) {
      if (current.length > 0) phrases.push(current);
      current = [];
      continue;
    }
    current.push(word);
  }
  if (current.length > 0) phrases.push(current);
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const phrase of phrases) {
    for (const word of phrase) {
      const key = word.toLowerCase();
      frequency.set(key, (frequency.get(key) ?? 0) + 1);
      degree.set(key, (degree.get(key) ?? 0) + phrase.length);
    }
  }
  const scored = phrases.map((phrase, order) => ({
    text: phrase.join(' '),
    order,
    score: phrase.reduce((sum, word) => sum + (degree.get(word.toLowerCase()) ?? 0) / (frequency.get(word.toLowerCase()) ?? 1), 0),
  }));
  const seen = new Set<string>();
  return scored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((phrase) => {
      const key = phrase.text.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, maxPhrases)
    .sort((a, b) => a.order - b.order)
    .map((phrase) => phrase.text);
}

function splitLong(sentence: string, maxChars: number): string[] {
  if (sentence.length <= maxChars) return [sentence];
  const parts = sentence.split(/(?<=[;；,，])\s*/u);
  const out: string[] = [];
  let buffer = '';
  for (const part of parts) {
    if (buffer.length + part.length > maxChars && buffer.length > 0) {
      out.push(buffer.trim());
      buffer = '';
    }
    buffer += part;
  }
  if (buffer.trim()) out.push(buffer.trim());
  return out.flatMap((part) => (part.length > maxChars ? (part.match(new RegExp(`[\\s\\S]{1,${maxChars}}`, 'gu')) ?? []) : [part]));
}

/**
 * LLM-free claim/query drafter — a classical baseline, not JointCQ: sentence segmentation (English and Chinese, core
 * `segmentSentences`), leading-pronoun replacement with the question's subject (decontextualisation), short-answer
 * completion with the question, and RAKE keyphrase queries (plus the subject). Skipped sentences are reported.
 * @example draftClaimsAndQueries({ question: 'Who wrote Hamlet?', answer: 'It was written by Shakespeare.' })
 */
export function draftClaimsAndQueries(request: DraftRequest, options: DraftOptions = {}): DraftResult {
  const { maxKeyphrases = 3, maxClaimChars = 400, splitCompound = false } = options;
  const question = typeof request.question === 'string' ? request.question.trim() : '';
  const answer = typeof request.answer === 'string' ? request.answer : '';
  const problems: ItemProblem<ClaimQueryProblemCode>[] = [];
  if (answer.trim().length === 0) return { pairs: [], sentences: [], problems: [{ code: 'empty-answer', message: 'the answer is empty' }] };
  const language = request.language ?? detectPromptLanguage(answer);
  const sentences = segmentSentences(answer).map((span) => ({ text: span.text, start: span.start, end: span.end }));
  const questionSubject = findQuestionSubject(question, language);
  // Without a subject in the question, the answer's own: the subject of its first sentence, when that names something.
  const answerSubject = splitCompound && language === 'en' && sentences[0] ? sentenceSubject(sentences[0].text) : undefined;
  const subject = questionSubject ?? (answerSubject && /^[A-Z]/.test(answerSubject) && !EN_PRONOUN.test(answerSubject) ? answerSubject : undefined);
  const itemId = typeof request.id === 'string' ? request.id : '0';
  const pairs: DraftedPair[] = [];
  sentences.forEach((sentence, sentenceIndex) => {
    const text = sentence.text.replace(/^[-*•]\s+|^\d+[.)、]\s*/u, '').trim();
    const words = tokenizeWords(text).filter((word) => !STOP.has(word.toLowerCase()));
    if (REFUSAL.test(text) || isRefusal(text)) return problems.push({ index: sentenceIndex, code: 'refusal', message: 'sentence is a refusal', raw: text });
    if (SUBJECTIVE.test(text)) return problems.push({ index: sentenceIndex, code: 'no-factual-content', message: 'subjective sentence', raw: text });
    if (/[?？]$/u.test(text)) return problems.push({ index: sentenceIndex, code: 'question-sentence', message: 'sentence is a question', raw: text });
    if (words.length === 0) return problems.push({ index: sentenceIndex, code: 'no-factual-content', message: 'no content words', raw: text });
    const parts = splitLong(text, maxClaimChars).flatMap((part) => (splitCompound && language === 'en' ? splitCompoundSentence(part) : [part]));
    for (const part of parts) {
      let claim = decontextualise(part, subject, language);
      // A bare short answer ("In 1586.") only makes sense with the question.
      const content = tokenizeWords(claim).filter((word) => !STOP.has(word.toLowerCase()));
      const hasVerb = /\b(is|are|was|were|has|have|had|\w+ed|\w+s)\b/i.test(claim.replace(/^\W+/, ''));
      const short = language === 'zh' ? claim.length <= 6 : content.length <= 3 && !hasVerb;
      if (short && question) claim = `${question.replace(/[?？]\s*$/u, '')}${language === 'zh' ? '：' : ': '}${claim}`;
      let query: string;
      if (language === 'zh') {
        query = claim
          .replace(/[。！？，、；：“”"（）()]/gu, ' ')
          .replace(ZH_FUNCTION, ' ')
          .replace(/\s+/gu, ' ')
          .trim();
      } else {
        const phrases = extractKeyphrases(claim, maxKeyphrases);
        if (questionSubject && !phrases.some((p) => p.toLowerCase().includes(questionSubject.toLowerCase()))) phrases.unshift(questionSubject);
        query = phrases.join(' ');
      }
      const id = claimIdOf(itemId, pairs.length);
      pairs.push({ claim: { id, text: claim }, query: { text: query || claim, claimId: id }, sentenceIndex });
    }
    return undefined;
  });
  if (pairs.length === 0 && problems.every((p) => p.code !== 'empty-answer')) {
    problems.push({ code: 'no-claims', message: 'no sentence with factual content in the answer' });
  }
  return { pairs, sentences, ...(subject ? { subject } : {}), problems };
}
