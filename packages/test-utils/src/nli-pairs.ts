// The labelled NLI pairs (train and held-out split) of the offline classifier in @factkit/nli-models, built from the
// data root. One implementation for examples/nli-classifier (training) and nli-models' held-out test and benches, which
// rebuild the held-out pairs at test time instead of keeping a copy cut from other people's data in the repository.
// Here because packages cannot import an example, and the package tests and the example may both use test-utils.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { NliLabel } from '@factkit/core';
import { createSeededRandom, tokenizeWords } from '@factkit/core';
import { findDataRoot, requireDataset } from './data-root.js';

/** The datasets the pairs are built from (folders of the data root). */
export const NLI_PAIR_DATASETS = ['fever-lite', 'climate-fever', 'scifact', 'vitaminc-sample', 'mnli-sample'] as const;

/** The data root, after checking it holds every dataset of {@link NLI_PAIR_DATASETS} (else a MissingDatasetError). */
export function requireNliPairDataRoot(): string {
  for (const name of NLI_PAIR_DATASETS) requireDataset(name);
  return findDataRoot() as string;
}

/** One labelled premise/hypothesis pair with the claim group that decides its split. */
export interface LabelledPair {
  readonly id: string;
  /** Dataset and construction, e.g. 'fever:supports', 'fever:mismatched-neutral'. */
  readonly source: string;
  /** Split key: pairs of the same claim (normalized hypothesis text) share it, so a claim is never on both sides. */
  readonly group: string;
  readonly split: 'train' | 'test';
  readonly premise: string;
  readonly hypothesis: string;
  readonly label: NliLabel;
}

export function readJsonl<T>(path: string): T[] {
  const buffer = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(buffer).toString('utf8') : buffer.toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export function normalizeClaim(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Test split = 25% of claim groups, by a salted SHA-256 of the group key (stable across runs and machines). */
export function splitOf(group: string): 'train' | 'test' {
  const digest = createHash('sha256').update(`factkit-nli-split-v1:${group}`).digest();
  return digest.readUInt32BE(0) % 100 < 25 ? 'test' : 'train';
}

/** Undoes FEVER's Wikipedia tokenisation (-LRB-, `` '', spaced punctuation) so evidence reads like normal text. */
export function detokenizeFever(text: string): string {
  return text
    .replace(/-LRB-/gu, '(')
    .replace(/-RRB-/gu, ')')
    .replace(/-LSB-/gu, '[')
    .replace(/-RSB-/gu, ']')
    .replace(/-LCB-/gu, '{')
    .replace(/-RCB-/gu, '}')
    .replace(/-COLON-/gu, ':')
    .replace(/``\s*/gu, '"')
    .replace(/\s*''/gu, '"')
    .replace(/\(\s+/gu, '(')
    .replace(/\s+\)/gu, ')')
    .replace(/\s+([,.;:!?%])/gu, '$1')
    .replace(/\s+('s|n't|'re|'ve|'ll|'d|'m)\b/gu, '$1')
    .replace(/\s+--\s+/gu, ' - ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Builds the labelled NLI pairs the offline classifier is trained and evaluated on, from the data root (fever-lite/, climate-fever/, scifact/,
 * vitaminc-sample/, mnli-sample/; read in place, never copied). Deterministic (seeded sampling, hash-based split by claim).
 *
 * Construction (premise = evidence, hypothesis = claim, as in the matcher where gold evidence is the premise):
 * - FEVER-lite (validation + test): SUPPORTS -> entailment, REFUTES -> contradiction, premise = the claim's gold
 *   evidence sentences joined (claims with 1-2 evidence sentences only). FEVER-lite has no NOT ENOUGH INFO claims, so
 *   neutral pairs come from elsewhere (below) plus "mismatched" pairs: a FEVER claim with the gold evidence of another
 *   claim of the same split that shares at least one content word with it (so overlap alone cannot decide).
 * - Climate-FEVER: every (claim, evidence sentence) with its sentence-level label (SUPPORTS / REFUTES / NOT_ENOUGH_INFO);
 *   NOT_ENOUGH_INFO sentences (retrieved for the claim, judged to say nothing about it) give real neutral pairs.
 * - SciFact (train + dev with rationales): SUPPORT -> entailment, CONTRADICT -> contradiction, premise = the rationale
 *   sentences; neutral = one non-rationale sentence of the same cited abstract (topical but not evidence).
 * - VitaminC sample and MultiNLI sample: their own three-way labels.
 * Split: by claim group (normalized claim text; MultiNLI: premise), 25% test, so no claim is on both sides.
 */
export function buildNliPairs(dataRoot: string): LabelledPair[] {
  const random = createSeededRandom(20251122);
  const pairs: LabelledPair[] = [];
  const add: AddPair = (source, group, premise, hypothesis, label) => {
    if (premise.trim() === '' || hypothesis.trim() === '') return;
    pairs.push({ id: `${source}:${pairs.length}`, source, group, split: splitOf(group), premise, hypothesis, label });
  };
  // The order matters: every step draws from the one seeded `random`.
  const fever = addFeverPairs(dataRoot, random, add);
  addFeverMismatchedPairs(fever, random, add);
  addClimateFeverPairs(dataRoot, random, add);
  addSciFactPairs(dataRoot, random, add);
  addVitaminCPairs(dataRoot, add);
  addMultiNliPairs(dataRoot, add);
  return pairs;
}

/** Adds one pair (skipped when the premise or hypothesis is blank); its id counts every pair added before it. */
type AddPair = (source: string, group: string, premise: string, hypothesis: string, label: NliLabel) => void;

interface FeverRow {
  id: string;
  claim: string;
  label: 'SUPPORTS' | 'REFUTES';
  evidence: string[];
}

type FeverPairRow = FeverRow & { premise: string };

/** FEVER-lite: up to 1,300 SUPPORTS and 1,300 REFUTES claims with 1–2 evidence sentences; returns the rows used. */
function addFeverPairs(dataRoot: string, random: () => number, add: AddPair): FeverPairRow[] {
  const fever = [...readJsonl<FeverRow>(join(dataRoot, 'fever-lite', 'validation.jsonl')), ...readJsonl<FeverRow>(join(dataRoot, 'fever-lite', 'test.jsonl'))]
    .filter((row) => row.evidence.length >= 1 && row.evidence.length <= 2)
    .map((row) => ({ ...row, premise: row.evidence.map(detokenizeFever).join(' ') }))
    .filter((row) => tokenizeWords(row.premise).length <= 90);
  const FEVER_PER_LABEL = 1300;
  const feverSupports = shuffle(
    fever.filter((row) => row.label === 'SUPPORTS'),
    random,
  ).slice(0, FEVER_PER_LABEL);
  const feverRefutes = shuffle(
    fever.filter((row) => row.label === 'REFUTES'),
    random,
  ).slice(0, FEVER_PER_LABEL);
  for (const row of feverSupports) add('fever:supports', `claim:${normalizeClaim(row.claim)}`, row.premise, row.claim, 'entailment');
  for (const row of feverRefutes) add('fever:refutes', `claim:${normalizeClaim(row.claim)}`, row.premise, row.claim, 'contradiction');
  return [...feverSupports, ...feverRefutes];
}

/** FEVER mismatched neutral pairs, within a split, sharing >= 1 content word (stopwords: words of <= 3 letters dropped). */
function addFeverMismatchedPairs(fever: readonly FeverPairRow[], random: () => number, add: AddPair): void {
  const contentWords = (text: string) => new Set(tokenizeWords(text).filter((word) => word.length > 3));
  const MISMATCHED = 800;
  for (const split of ['train', 'test'] as const) {
    const rows = shuffle(
      fever.filter((row) => splitOf(`claim:${normalizeClaim(row.claim)}`) === split),
      random,
    );
    const wanted = Math.round(MISMATCHED * (split === 'train' ? 0.75 : 0.25));
    let made = 0;
    for (let i = 0; i < rows.length && made < wanted; i += 1) {
      const row = rows[i] as FeverPairRow;
      const words = contentWords(row.claim);
      // Look at up to 200 other claims for one whose evidence shares a content word but not the claim's own evidence.
      for (let attempt = 1; attempt <= 200; attempt += 1) {
        const other = rows[(i + attempt * 7) % rows.length] as FeverPairRow;
        if (other.id === row.id || normalizeClaim(other.claim) === normalizeClaim(row.claim)) continue;
        if (other.evidence.some((sentence) => row.evidence.includes(sentence))) continue;
        const otherWords = contentWords(other.premise);
        const shared = [...words].filter((word) => otherWords.has(word)).length;
        if (shared >= 1 && shared < words.size) {
          add('fever:mismatched-neutral', `claim:${normalizeClaim(row.claim)}`, other.premise, row.claim, 'neutral');
          made += 1;
          break;
        }
      }
    }
  }
}

/** Climate-FEVER: every agreed (claim, evidence sentence) pair; neutral ones sampled down to 1,300. */
function addClimateFeverPairs(dataRoot: string, random: () => number, add: AddPair): void {
  interface ClimateRow {
    claim_id: string;
    claim: string;
    evidences: { evidence_label: string; evidence: string; entropy: number }[];
  }
  const climateLabel: Record<string, NliLabel> = { SUPPORTS: 'entailment', REFUTES: 'contradiction', NOT_ENOUGH_INFO: 'neutral' };
  const climatePairs: { claim: string; premise: string; label: NliLabel }[] = [];
  for (const row of readJsonl<ClimateRow>(join(dataRoot, 'climate-fever', 'climate-fever.jsonl'))) {
    for (const evidence of row.evidences) {
      const label = climateLabel[evidence.evidence_label];
      // Only sentences whose annotators agreed (vote entropy 0): Climate-FEVER's sentence labels have low inter-annotator
      // agreement (Krippendorff's alpha 0.334 in the paper), and a tie between SUPPORTS and NOT_ENOUGH_INFO is labelled NEI.
      if (label && evidence.entropy === 0) climatePairs.push({ claim: row.claim, premise: evidence.evidence, label });
    }
  }
  const climateNeutral = shuffle(
    climatePairs.filter((pair) => pair.label === 'neutral'),
    random,
  ).slice(0, 1300);
  for (const pair of [...climatePairs.filter((pair) => pair.label !== 'neutral'), ...climateNeutral]) {
    add(`climate-fever:${pair.label}`, `claim:${normalizeClaim(pair.claim)}`, pair.premise, pair.claim, pair.label);
  }
}

/** SciFact rationales (train + dev): rationale sets, and one non-rationale sentence of the cited abstract as neutral. */
function addSciFactPairs(dataRoot: string, random: () => number, add: AddPair): void {
  interface SciFactClaim {
    id: number;
    claim: string;
    evidence: Record<string, { sentences: number[]; label: 'SUPPORT' | 'CONTRADICT' }[]>;
  }
  interface SciFactDocument {
    doc_id: number;
    abstract: string[];
  }
  const abstracts = new Map(readJsonl<SciFactDocument>(join(dataRoot, 'scifact', 'corpus_sentences.jsonl.gz')).map((doc) => [String(doc.doc_id), doc.abstract]));
  const scifactClaims = [...readJsonl<SciFactClaim>(join(dataRoot, 'scifact', 'claims_train.jsonl')), ...readJsonl<SciFactClaim>(join(dataRoot, 'scifact', 'claims_dev.jsonl'))];
  for (const claim of scifactClaims) {
    const group = `claim:${normalizeClaim(claim.claim)}`;
    for (const [docId, sets] of Object.entries(claim.evidence ?? {})) {
      const abstract = abstracts.get(docId);
      if (!abstract) continue;
      const rationale = new Set<number>();
      for (const set of sets) {
        set.sentences.forEach((index) => rationale.add(index));
        const premise = set.sentences.map((index) => abstract[index] ?? '').join(' ');
        add(`scifact:${set.label === 'SUPPORT' ? 'entailment' : 'contradiction'}`, group, premise, claim.claim, set.label === 'SUPPORT' ? 'entailment' : 'contradiction');
      }
      const others = abstract.map((_sentence, index) => index).filter((index) => !rationale.has(index) && index > 0);
      if (others.length > 0) {
        const pick = others[Math.floor(random() * others.length)] as number;
        add('scifact:non-rationale-neutral', group, abstract[pick] as string, claim.claim, 'neutral');
      }
    }
  }
}

/** VitaminC sample: its own three-way labels. */
function addVitaminCPairs(dataRoot: string, add: AddPair): void {
  interface VitaminRow {
    case_id: string;
    claim: string;
    evidence: string;
    label: 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO';
  }
  const vitaminLabel: Record<string, NliLabel> = { SUPPORTS: 'entailment', REFUTES: 'contradiction', 'NOT ENOUGH INFO': 'neutral' };
  for (const row of readJsonl<VitaminRow>(join(dataRoot, 'vitaminc-sample', 'vitaminc_sample.jsonl'))) {
    add(`vitaminc:${vitaminLabel[row.label]}`, `claim:${normalizeClaim(row.claim)}`, row.evidence, row.claim, vitaminLabel[row.label] as NliLabel);
  }
}

/** MultiNLI sample, grouped by premise (MultiNLI writes three hypotheses per premise). */
function addMultiNliPairs(dataRoot: string, add: AddPair): void {
  interface MnliRow {
    premise: string;
    hypothesis: string;
    label: NliLabel;
  }
  for (const row of readJsonl<MnliRow>(join(dataRoot, 'mnli-sample', 'mnli_sample.jsonl'))) {
    add(`mnli:${row.label}`, `premise:${normalizeClaim(row.premise)}`, row.premise, row.hypothesis, row.label);
  }
}

/** A held-out pair as nli-models' held-out test scores it: `source` is the dataset (fever, climate-fever, scifact, …). */
export interface HeldOutPair {
  readonly source: string;
  readonly premise: string;
  readonly hypothesis: string;
  readonly label: NliLabel;
}

/** The held-out (split 'test') pairs of {@link buildNliPairs}, in order, as the shipped weights were evaluated on. */
export function heldOutPairs(dataRoot: string): HeldOutPair[] {
  return buildNliPairs(dataRoot)
    .filter((pair) => pair.split === 'test')
    .map((pair) => ({ source: pair.source.split(':')[0] as string, premise: pair.premise, hypothesis: pair.hypothesis, label: pair.label }));
}
