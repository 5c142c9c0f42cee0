import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createSeededRandom, type Document } from '@factkit/core';

/** One tracing query: a claim and the ids of the corpus sentences that support it. */
export interface TracingQuery {
  readonly id: string;
  readonly claim: string;
  readonly source: 'fever-lite' | 'climate-fever';
  /** Ground truth: the claim's gold supporting evidence sentences. */
  readonly gold: readonly string[];
  /** Sentences in the corpus that are about the claim but do not support it (its REFUTES / NOT_ENOUGH_INFO evidence). */
  readonly relevantNotSupporting: readonly string[];
}

export interface TracingBenchmark {
  readonly documents: Document[];
  readonly queries: TracingQuery[];
  readonly stats: Readonly<Record<string, number>>;
}

export interface TracingBenchmarkOptions {
  /** The data root: a folder holding fever-lite/, climate-fever/ and scifact/ (see @factkit/test-utils/data). */
  readonly dataRoot: string;
  /** Corpus size. @default 10000 */
  readonly size?: number;
  /** Queries (half FEVER-lite, half Climate-FEVER SUPPORTS claims). @default 100 */
  readonly queryCount?: number;
  /** Largest share of the corpus taken by FEVER-lite / Climate-FEVER evidence; SciFact sentences fill the rest. @default 0.6 */
  readonly evidenceShare?: number;
  /** @default 1 */
  readonly seed?: number;
}

interface EvidenceClaim {
  readonly claim: string;
  readonly source: 'fever-lite' | 'climate-fever';
  readonly key: string;
  readonly supporting: string[];
  readonly other: string[];
}

function readJsonl<T>(path: string): T[] {
  const raw = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

/** Capitalized words (≥ 4 letters, not the first word) of a claim: a cheap stand-in for its entities. */
export function entityWords(claim: string): string[] {
  const words = claim.split(/\s+/).slice(1);
  return words.map((word) => word.replace(/[^\p{L}\p{N}-]/gu, '')).filter((word) => /^\p{Lu}/u.test(word) && word.length >= 4);
}

/**
 * A fact-tracing benchmark in the paper's shape (a corpus of ≥ 10k sentences, SUPPORTS claims as queries, their gold
 * evidence as ground truth), built from data in the repository:
 * - queries: SUPPORTS claims of FEVER-lite (validation + test) and Climate-FEVER claims with ≥ 1 SUPPORTS evidence
 *   sentence, half and half, drawn with a seed; ground truth = the claim's gold supporting sentences;
 * - corpus, in priority order until `evidenceShare · size`: every evidence sentence of the query claims (Climate-FEVER's
 *   REFUTES / NOT_ENOUGH_INFO sentences of the same claim stay in as relevant-but-not-supporting); the evidence of
 *   FEVER-lite REFUTES claims that share an entity word with a query claim (the VITATRACE situation); the other
 *   FEVER-lite / Climate-FEVER evidence; then SciFact abstract sentences as distractors up to `size`.
 * Sentences are deduplicated by exact text. Deterministic for a seed.
 */
export function buildTracingBenchmark(options: TracingBenchmarkOptions): TracingBenchmark {
  const { dataRoot, size = 10_000, queryCount = 100, evidenceShare = 0.6, seed = 1 } = options;
  const random = createSeededRandom(seed);
  const claims: EvidenceClaim[] = [];
  const refuting: EvidenceClaim[] = [];
  for (const split of ['validation', 'test']) {
    for (const row of readJsonl<{ id: string; claim: string; label: string; evidence: string[] }>(join(dataRoot, 'fever-lite', `${split}.jsonl`))) {
      const entry: EvidenceClaim = { claim: row.claim, source: 'fever-lite', key: `fever:${row.id}`, supporting: row.label === 'SUPPORTS' ? row.evidence : [], other: row.label === 'SUPPORTS' ? [] : row.evidence };
      if (row.label === 'SUPPORTS') claims.push(entry);
      else refuting.push(entry);
    }
  }
  for (const row of readJsonl<{ claim_id: string; claim: string; evidences: Array<{ evidence_label: string; evidence: string }> }>(join(dataRoot, 'climate-fever', 'climate-fever.jsonl'))) {
    const supporting = row.evidences.filter((evidence) => evidence.evidence_label === 'SUPPORTS').map((evidence) => evidence.evidence);
    const other = row.evidences.filter((evidence) => evidence.evidence_label !== 'SUPPORTS').map((evidence) => evidence.evidence);
    const entry: EvidenceClaim = { claim: row.claim, source: 'climate-fever', key: `climate:${row.claim_id}`, supporting, other };
    if (supporting.length > 0) claims.push(entry);
    else refuting.push(entry);
  }
  // Queries: distinct claim texts, half from each source.
  const seenClaims = new Set<string>();
  const bySource = (source: EvidenceClaim['source']) =>
    shuffle(
      claims.filter((claim) => claim.source === source),
      random,
    ).filter((claim) => (seenClaims.has(claim.claim) ? false : (seenClaims.add(claim.claim), true)));
  const fever = bySource('fever-lite');
  const climate = bySource('climate-fever');
  const queryClaims = [...fever.slice(0, Math.ceil(queryCount / 2)), ...climate.slice(0, Math.floor(queryCount / 2))];
  const queryKeys = new Set(queryClaims.map((claim) => claim.key));

  const idByText = new Map<string, string>();
  const documents: Document[] = [];
  const evidenceBudget = Math.floor(size * evidenceShare);
  const add = (text: string, id: string, origin: string): boolean => {
    if (idByText.has(text)) return true;
    if (documents.length >= size) return false;
    idByText.set(text, id);
    documents.push({ id, text, metadata: { origin } });
    return true;
  };
  let sentenceCounter = 0;
  const addEvidence = (claim: EvidenceClaim, tier: string, budget: number): void => {
    for (const text of [...claim.supporting, ...claim.other]) {
      if (documents.length >= budget && !idByText.has(text)) return;
      add(text, `${claim.source === 'fever-lite' ? 'fever' : 'climate'}-s${sentenceCounter++}`, tier);
    }
  };
  for (const claim of queryClaims) addEvidence(claim, 'query-evidence', size);
  const entities = new Set(queryClaims.flatMap((claim) => entityWords(claim.claim)));
  const sameEntity = shuffle(
    refuting.filter((claim) => entityWords(claim.claim).some((word) => entities.has(word))),
    random,
  );
  for (const claim of sameEntity) addEvidence(claim, 'same-entity-refutes', evidenceBudget);
  const rest = shuffle([...claims.filter((claim) => !queryKeys.has(claim.key)), ...refuting.filter((claim) => !sameEntity.includes(claim))], random);
  for (const claim of rest) {
    if (documents.length >= evidenceBudget) break;
    addEvidence(claim, 'other-evidence', evidenceBudget);
  }
  const scifact: string[] = [];
  for (const row of readJsonl<{ doc_id: number; abstract: string[] }>(join(dataRoot, 'scifact', 'corpus_sentences.jsonl.gz'))) {
    row.abstract.forEach((sentence) => scifact.push(sentence));
  }
  shuffle(scifact, random);
  let scifactCount = 0;
  for (const sentence of scifact) {
    if (documents.length >= size) break;
    if (!idByText.has(sentence)) scifactCount++;
    add(sentence, `scifact-s${scifactCount}`, 'scifact-distractor');
  }
  const queries: TracingQuery[] = queryClaims.map((claim, index) => ({
    id: `q${index}`,
    claim: claim.claim,
    source: claim.source,
    gold: [...new Set(claim.supporting.map((text) => idByText.get(text) as string))],
    relevantNotSupporting: [...new Set(claim.other.map((text) => idByText.get(text) as string))].filter((id) => !claim.supporting.some((text) => idByText.get(text) === id)),
  }));
  const count = (origin: string) => documents.filter((document) => document.metadata?.['origin'] === origin).length;
  return {
    documents,
    queries,
    stats: {
      documents: documents.length,
      queries: queries.length,
      goldSentences: queries.reduce((sum, query) => sum + query.gold.length, 0),
      queryEvidence: count('query-evidence'),
      sameEntityRefutes: count('same-entity-refutes'),
      otherEvidence: count('other-evidence'),
      scifactDistractors: count('scifact-distractor'),
    },
  };
}
