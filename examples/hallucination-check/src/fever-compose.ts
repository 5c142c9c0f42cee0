import type { Document } from '@factkit/core';
import { createSeededRandom, segmentSentences } from '@factkit/core';

export interface FeverClaim {
  readonly id: string;
  readonly claim: string;
  readonly label: 'SUPPORTS' | 'REFUTES';
  readonly evidence: readonly string[];
}

export interface ComposedResponse {
  readonly id: string;
  readonly question: string;
  readonly answer: string;
  readonly claimIds: readonly string[];
  /** Per sentence: true when its FEVER claim is REFUTES (a hallucinated sentence). */
  readonly sentenceGold: readonly boolean[];
  readonly responseGold: boolean;
}

/** Undoes FEVER's Wikipedia tokenisation (-LRB-, ``, spaced punctuation) so text reads naturally. */
export function detokenizeFever(text: string): string {
  return text
    .replace(/-LRB-/g, '(')
    .replace(/-RRB-/g, ')')
    .replace(/-LSB-/g, '[')
    .replace(/-RSB-/g, ']')
    .replace(/-LCB-/g, '{')
    .replace(/-RCB-/g, '}')
    .replace(/``\s*/g, '"')
    .replace(/\s*''/g, '"')
    .replace(/\s+([.,;:!?%)\]])/g, '$1')
    .replace(/([([])\s+/g, '$1')
    .replace(/\s+'s\b/g, "'s")
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function asSentence(claim: string): string {
  const text = claim.trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * Builds responses of 1–4 sentences from FEVER-lite claims (seeded shuffle, sizes uniform in 1..4): each claim is one
 * sentence, a REFUTES claim makes its sentence hallucinated, and a response is hallucinated if any sentence is.
 * Groups whose joined text core's segmenter does not split back into the same sentences are skipped and counted.
 */
export function composeFeverResponses(claims: readonly FeverClaim[], options: { count: number; seed: number }): { responses: ComposedResponse[]; skipped: number } {
  const random = createSeededRandom(options.seed);
  const order = claims.map((_, index) => index);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const responses: ComposedResponse[] = [];
  let skipped = 0;
  let cursor = 0;
  while (responses.length < options.count && cursor < order.length) {
    const size = 1 + Math.floor(random() * 4);
    const group = order.slice(cursor, cursor + size).map((index) => claims[index]!);
    cursor += size;
    const sentences = group.map((claim) => asSentence(claim.claim));
    const answer = sentences.join(' ');
    const split = segmentSentences(answer).map((span) => span.text);
    if (split.length !== sentences.length || split.some((text, i) => text !== sentences[i])) {
      skipped += 1;
      continue;
    }
    const sentenceGold = group.map((claim) => claim.label === 'REFUTES');
    responses.push({
      id: `fever-r${responses.length}`,
      question: '',
      answer,
      claimIds: group.map((claim) => claim.id),
      sentenceGold,
      responseGold: sentenceGold.some(Boolean),
    });
  }
  return { responses, skipped };
}

/** Pooled, de-duplicated, detokenised gold-evidence sentences of the given claims: the local search corpus. */
export function poolEvidence(claims: readonly FeverClaim[]): Document[] {
  const seen = new Set<string>();
  const documents: Document[] = [];
  for (const claim of claims) {
    for (const sentence of claim.evidence) {
      const text = detokenizeFever(sentence);
      if (!text || seen.has(text)) continue;
      seen.add(text);
      documents.push({ id: `fever-ev-${documents.length}`, text });
    }
  }
  return documents;
}
