/**
 * Builds the labelled NLI pairs the offline classifier is trained and evaluated on, from the vendored datasets only.
 * Writes output/pairs.jsonl. Deterministic (seeded sampling, hash-based split by claim).
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
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NliLabel } from '@factkit/core';
import { createSeededRandom, tokenizeWords } from '@factkit/core';
import type { LabelledPair } from './shared.js';
import { DATASETS_DIR, OUTPUT_DIR, detokenizeFever, normalizeClaim, readJsonl, shuffle, splitOf } from './shared.js';

const random = createSeededRandom(20251122);
const pairs: LabelledPair[] = [];
const add = (source: string, group: string, premise: string, hypothesis: string, label: NliLabel) => {
  if (premise.trim() === '' || hypothesis.trim() === '') return;
  pairs.push({ id: `${source}:${pairs.length}`, source, group, split: splitOf(group), premise, hypothesis, label });
};

// FEVER-lite
interface FeverRow { id: string; claim: string; label: 'SUPPORTS' | 'REFUTES'; evidence: string[] }
const fever = [...readJsonl<FeverRow>(join(DATASETS_DIR, 'fever-lite', 'validation.jsonl')), ...readJsonl<FeverRow>(join(DATASETS_DIR, 'fever-lite', 'test.jsonl'))]
  .filter((row) => row.evidence.length >= 1 && row.evidence.length <= 2)
  .map((row) => ({ ...row, premise: row.evidence.map(detokenizeFever).join(' ') }))
  .filter((row) => tokenizeWords(row.premise).length <= 90);
const FEVER_PER_LABEL = 1300;
const feverSupports = shuffle(fever.filter((row) => row.label === 'SUPPORTS'), random).slice(0, FEVER_PER_LABEL);
const feverRefutes = shuffle(fever.filter((row) => row.label === 'REFUTES'), random).slice(0, FEVER_PER_LABEL);
for (const row of feverSupports) add('fever:supports', `claim:${normalizeClaim(row.claim)}`, row.premise, row.claim, 'entailment');
for (const row of feverRefutes) add('fever:refutes', `claim:${normalizeClaim(row.claim)}`, row.premise, row.claim, 'contradiction');

// FEVER mismatched neutral pairs, within a split, sharing >= 1 content word (stopwords: words of <= 3 letters dropped).
const contentWords = (text: string) => new Set(tokenizeWords(text).filter((word) => word.length > 3));
const MISMATCHED = 800;
for (const split of ['train', 'test'] as const) {
  const rows = shuffle([...feverSupports, ...feverRefutes].filter((row) => splitOf(`claim:${normalizeClaim(row.claim)}`) === split), random);
  const wanted = Math.round(MISMATCHED * (split === 'train' ? 0.75 : 0.25));
  let made = 0;
  for (let i = 0; i < rows.length && made < wanted; i += 1) {
    const row = rows[i] as (typeof rows)[number];
    const words = contentWords(row.claim);
    // Look at up to 200 other claims for one whose evidence shares a content word but not the claim's own evidence.
    for (let attempt = 1; attempt <= 200; attempt += 1) {
      const other = rows[(i + attempt * 7) % rows.length] as (typeof rows)[number];
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

// Climate-FEVER
interface ClimateRow { claim_id: string; claim: string; evidences: { evidence_label: string; evidence: string; entropy: number }[] }
const climateLabel: Record<string, NliLabel> = { SUPPORTS: 'entailment', REFUTES: 'contradiction', NOT_ENOUGH_INFO: 'neutral' };
const climatePairs: { claim: string; premise: string; label: NliLabel }[] = [];
for (const row of readJsonl<ClimateRow>(join(DATASETS_DIR, 'climate-fever', 'climate-fever.jsonl'))) {
  for (const evidence of row.evidences) {
    const label = climateLabel[evidence.evidence_label];
    // Only sentences whose annotators agreed (vote entropy 0): Climate-FEVER's sentence labels have low inter-annotator
    // agreement (Krippendorff's alpha 0.334 in the paper), and a tie between SUPPORTS and NOT_ENOUGH_INFO is labelled NEI.
    if (label && evidence.entropy === 0) climatePairs.push({ claim: row.claim, premise: evidence.evidence, label });
  }
}
const climateNeutral = shuffle(climatePairs.filter((pair) => pair.label === 'neutral'), random).slice(0, 1300);
for (const pair of [...climatePairs.filter((pair) => pair.label !== 'neutral'), ...climateNeutral]) {
  add(`climate-fever:${pair.label}`, `claim:${normalizeClaim(pair.claim)}`, pair.premise, pair.claim, pair.label);
}

// SciFact rationales
interface SciFactClaim { id: number; claim: string; evidence: Record<string, { sentences: number[]; label: 'SUPPORT' | 'CONTRADICT' }[]> }
interface SciFactDocument { doc_id: number; abstract: string[] }
const abstracts = new Map(readJsonl<SciFactDocument>(join(DATASETS_DIR, 'scifact', 'corpus_sentences.jsonl.gz')).map((doc) => [String(doc.doc_id), doc.abstract]));
const scifactClaims = [...readJsonl<SciFactClaim>(join(DATASETS_DIR, 'scifact', 'claims_train.jsonl')), ...readJsonl<SciFactClaim>(join(DATASETS_DIR, 'scifact', 'claims_dev.jsonl'))];
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

// VitaminC sample
interface VitaminRow { case_id: string; claim: string; evidence: string; label: 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO' }
const vitaminLabel: Record<string, NliLabel> = { SUPPORTS: 'entailment', REFUTES: 'contradiction', 'NOT ENOUGH INFO': 'neutral' };
for (const row of readJsonl<VitaminRow>(join(DATASETS_DIR, 'vitaminc-sample', 'vitaminc_sample.jsonl'))) {
  add(`vitaminc:${vitaminLabel[row.label]}`, `claim:${normalizeClaim(row.claim)}`, row.evidence, row.claim, vitaminLabel[row.label] as NliLabel);
}

// MultiNLI sample (grouped by premise: MultiNLI writes three hypotheses per premise)
interface MnliRow { premise: string; hypothesis: string; label: NliLabel }
for (const row of readJsonl<MnliRow>(join(DATASETS_DIR, 'mnli-sample', 'mnli_sample.jsonl'))) {
  add(`mnli:${row.label}`, `premise:${normalizeClaim(row.premise)}`, row.premise, row.hypothesis, row.label);
}

mkdirSync(OUTPUT_DIR, { recursive: true });
writeFileSync(join(OUTPUT_DIR, 'pairs.jsonl'), `${pairs.map((pair) => JSON.stringify(pair)).join('\n')}\n`);
const counts: Record<string, Record<string, number>> = {};
for (const pair of pairs) {
  const key = `${pair.split}`;
  counts[key] ??= {};
  counts[key][pair.label] = (counts[key][pair.label] ?? 0) + 1;
}
const bySource: Record<string, number> = {};
for (const pair of pairs) bySource[pair.source] = (bySource[pair.source] ?? 0) + 1;
process.stdout.write(`${JSON.stringify({ total: pairs.length, counts, bySource }, null, 2)}\n`);
