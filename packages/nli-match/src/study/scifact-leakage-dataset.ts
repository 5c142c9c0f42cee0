import type { Claim, Document, ItemProblem } from '@factkit/core';
import type { NliMatchProblemCode } from '../problem-codes.js';
import { InvalidArgumentError } from '@factkit/core';
import type { LeakageDataset } from './leakage-study-types.js';

/** One line of SciFact's `claims_*.jsonl`: `evidence` maps a document id to rationale sets (sentence indices). */
export interface SciFactClaimRow {
  readonly id: number | string;
  readonly claim: string;
  readonly evidence?: Readonly<Record<string, ReadonlyArray<{ readonly sentences: readonly number[]; readonly label: string }>>>;
}

/** One line of SciFact's sentence-split corpus (`corpus_sentences.jsonl` / the original `corpus.jsonl`). */
export interface SciFactAbstractRow {
  readonly doc_id: number | string;
  readonly title?: string;
  readonly abstract: readonly string[];
}

export interface SciFactLeakageDatasetOptions {
  /** Claim rows, in order (e.g. `claims_dev.jsonl` = BEIR's test split). Claims without rationales are left out. */
  readonly claims: readonly unknown[];
  /** Every abstract of the knowledge store, split into sentences. */
  readonly abstracts: readonly unknown[];
  /** @default 'SciFact' */
  readonly name?: string;
  /** Keep the first `limit` claims that have rationales. @default Infinity */
  readonly limit?: number;
}

/** Id of sentence `index` of abstract `documentId` in the sentence-level knowledge store. */
export const sciFactSentenceId = (documentId: string, index: number): string => `${documentId}#${index}`;

const SCIFACT_LABELS: Readonly<Record<string, string>> = { SUPPORT: 'supported', CONTRADICT: 'refuted' };

const isAbstractRow = (row: unknown): row is SciFactAbstractRow =>
  typeof row === 'object' && row !== null && (typeof (row as SciFactAbstractRow).doc_id === 'number' || typeof (row as SciFactAbstractRow).doc_id === 'string') && Array.isArray((row as SciFactAbstractRow).abstract);
const isClaimRow = (row: unknown): row is SciFactClaimRow =>
  typeof row === 'object' && row !== null && (typeof (row as SciFactClaimRow).id === 'number' || typeof (row as SciFactClaimRow).id === 'string') && typeof (row as SciFactClaimRow).claim === 'string';

/** The rationale sentences of one claim (gold evidence E) and their sentence ids, or a problem naming what was wrong. */
function rationalesOf(row: SciFactClaimRow, sentences: ReadonlyMap<string, readonly string[]>) {
  const evidence: string[] = [];
  const relevant: Record<string, number> = {};
  const labels = new Set<string>();
  for (const [documentId, sets] of Object.entries(row.evidence ?? {})) {
    const abstract = sentences.get(documentId);
    if (!abstract) return { problem: `evidence document ${documentId} is not in the abstracts` };
    for (const set of Array.isArray(sets) ? sets : []) {
      labels.add(set.label);
      for (const index of Array.isArray(set.sentences) ? set.sentences : []) {
        const sentence = abstract[index];
        if (typeof sentence !== 'string') return { problem: `sentence ${String(index)} is outside document ${documentId}` };
        if (!evidence.includes(sentence)) evidence.push(sentence);
        relevant[sciFactSentenceId(documentId, index)] = 1;
      }
    }
  }
  // A claim whose rationale sets disagree gets no gold label.
  const label = labels.size === 1 ? SCIFACT_LABELS[[...labels][0] as string] : undefined;
  return { evidence, relevant, label };
}

/**
 * SciFact in the paper's setting ("Hypothetical Documents or Knowledge Leakage?", section 3.1): the knowledge store is
 * every sentence of every abstract (id `<doc id>#<sentence index>`), a claim's gold evidence E is its rationale
 * sentences (the NLI premises, never whole abstracts), its relevant documents are those sentences, and its label is
 * 'supported' / 'refuted' (CONTRADICT counts as refuted, footnote 1). Claims without rationales are left out, as in
 * the paper. Malformed rows become problems, never a throw.
 * @throws InvalidArgumentError when `claims` or `abstracts` is not an array, or `limit` is not a positive integer.
 */
export function buildSciFactLeakageDataset(options: SciFactLeakageDatasetOptions): { dataset: LeakageDataset; problems: ItemProblem<NliMatchProblemCode>[]; leftOut: number } {
  const where = 'buildSciFactLeakageDataset';
  const { claims: claimRows, abstracts, name = 'SciFact', limit = Number.POSITIVE_INFINITY } = options ?? ({} as SciFactLeakageDatasetOptions);
  if (!Array.isArray(claimRows)) throw new InvalidArgumentError({ where, argument: 'claims', message: 'must be an array of SciFact claim rows' });
  if (!Array.isArray(abstracts)) throw new InvalidArgumentError({ where, argument: 'abstracts', message: 'must be an array of SciFact abstract rows' });
  if (limit !== Number.POSITIVE_INFINITY && (!Number.isInteger(limit) || limit < 1)) throw new InvalidArgumentError({ where, argument: 'limit', message: `must be a positive integer (got ${String(limit)})` });
  const problems: ItemProblem<NliMatchProblemCode>[] = [];
  const sentences = new Map<string, readonly string[]>();
  const corpus: Document[] = [];
  abstracts.forEach((row, index) => {
    if (!isAbstractRow(row)) {
      problems.push({ index, code: 'invalid-abstract', message: 'abstract row needs doc_id and an abstract array; skipped' });
      return;
    }
    sentences.set(String(row.doc_id), row.abstract);
    row.abstract.forEach((sentence, position) => {
      if (typeof sentence === 'string' && sentence.trim() !== '') corpus.push({ id: sciFactSentenceId(String(row.doc_id), position), text: sentence.trim() });
    });
  });
  const claims: Claim[] = [];
  const evidence: Record<string, string[]> = {};
  const qrels: Record<string, Record<string, number>> = {};
  const labels: Record<string, string> = {};
  let leftOut = 0;
  for (const [index, row] of claimRows.entries()) {
    if (claims.length >= limit) break;
    if (!isClaimRow(row)) {
      problems.push({ index, code: 'invalid-claim', message: 'claim row needs an id and a claim string; skipped' });
      continue;
    }
    const id = String(row.id);
    const rationales = rationalesOf(row, sentences);
    if ('problem' in rationales) {
      problems.push({ index, id, code: 'invalid-rationale', message: `${rationales.problem}; claim skipped` });
      continue;
    }
    if (rationales.evidence.length === 0) {
      leftOut += 1;
      continue;
    }
    claims.push({ id, text: row.claim });
    evidence[id] = rationales.evidence;
    qrels[id] = rationales.relevant;
    if (rationales.label) labels[id] = rationales.label;
  }
  return { dataset: { name, claims, evidence, qrels, labels, corpus, language: 'en' }, problems, leftOut };
}
