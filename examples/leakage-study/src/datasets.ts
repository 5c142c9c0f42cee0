import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CorruptDataError, InvalidArgumentError, type Document } from '@factkit/core';
import { buildSciFactLeakageDataset } from '@factkit/nli-match';

/** One claim of the study: its text, gold evidence sentences and relevant documents. */
export interface StudyClaim {
  readonly id: string;
  readonly text: string;
  /** Gold evidence E = e_1..e_m (rationale sentences), the premises of the NLI matcher. */
  readonly evidence: readonly string[];
  /** Relevant document ids (qrels), graded relevance. */
  readonly relevant: Readonly<Record<string, number>>;
  /**
   * Gold verdict, lower case: SciFact SUPPORT / FEVER SUPPORTS → 'supported'; CONTRADICT / REFUTES → 'refuted' (paper,
   * footnote 1); AVeriTeC's four labels as they are ('not enough evidence', 'conflicting evidence/cherrypicking').
   */
  readonly label?: string;
}

/** The two verdicts SciFact and FEVER-lite claims with evidence can have. */
export type VerdictLabel = 'supported' | 'refuted';

/**
 * Verdict labels offered to the verdict model (Fig. A2's [LABEL]), per the paper's footnote 1: SciFact and FEVER use
 * three (SciFact's CONTRADICT counts as refuted); AVeriTeC adds conflicting evidence. Gold labels of claims with
 * evidence are 'supported' or 'refuted', so a 'not enough evidence' answer is a wrong prediction, as in the paper.
 */
export function verdictLabelsFor(datasetName: string): readonly string[] {
  return /averitec/i.test(datasetName) ? ['supported', 'refuted', 'not enough evidence', 'conflicting evidence/cherrypicking'] : ['supported', 'refuted', 'not enough evidence'];
}

export interface StudyDataset {
  readonly name: string;
  /** What one document of the knowledge store is. */
  readonly unit: 'sentence' | 'abstract';
  /** The files read (for provenance hashes). */
  readonly files: readonly string[];
  readonly corpus: readonly Document[];
  readonly claims: readonly StudyClaim[];
}

async function readLines(path: string): Promise<string[]> {
  const buffer = await readFile(path);
  const text = path.endsWith('.gz') ? gunzipSync(buffer).toString('utf8') : buffer.toString('utf8');
  return text.split('\n').filter((line) => line.trim() !== '');
}

function parseLine<T>(line: string, source: string, lineNumber: number): T {
  try {
    return JSON.parse(line) as T;
  } catch (error) {
    throw new CorruptDataError({ source: `${source}:${lineNumber}`, message: 'is not valid JSON', cause: error });
  }
}

export interface LoadSciFactOptions {
  /** Folder with the BEIR SciFact files (the data root's scifact/). */
  readonly directory: string;
  /**
   * Claims to use: 'train' (claims_train, BEIR train qrels), 'test' (claims_dev = BEIR test), or 'all'. The paper used
   * train + test claims that have gold evidence. @default 'all'
   */
  readonly split?: 'train' | 'test' | 'all';
  /** Keep only the first `limit` claims (after filtering). @default Infinity */
  readonly limit?: number;
  /**
   * The unit of retrieval. 'sentence' (the paper's setting): the knowledge store is every sentence of the 5,183
   * abstracts in SciFact's own split (`corpus_sentences`: 45,952 sentences, id `<doc id>#<sentence index>`, text only,
   * no title), and the relevant documents of a claim are its rationale sentences. 'abstract': whole abstracts (title
   * and text) judged by the BEIR qrels. @default 'sentence'
   */
  readonly unit?: 'sentence' | 'abstract';
}

/** Id of sentence `index` of abstract `documentId` in the sentence-level SciFact knowledge store. */
export { sciFactSentenceId } from '@factkit/nli-match';

/**
 * SciFact over the complete corpus (5,183 abstracts). Claims without gold evidence are left out, as in the paper;
 * gold evidence = the rationale sentences (`claims_*.jsonl` sentence indices into `corpus_sentences`), relevant
 * documents = the BEIR qrels of the claim.
 */
export async function loadSciFact(options: LoadSciFactOptions): Promise<StudyDataset> {
  const { directory, split = 'all', limit = Number.POSITIVE_INFINITY, unit = 'sentence' } = options;
  if (unit !== 'sentence' && unit !== 'abstract') throw new InvalidArgumentError({ where: 'loadSciFact', argument: 'unit', message: `must be 'sentence' or 'abstract' (got ${String(unit)})` });
  const corpusRows = (await readLines(join(directory, 'corpus.jsonl.gz'))).map((line, index) => parseLine<{ _id: string; title?: string; text: string }>(line, 'scifact/corpus.jsonl.gz', index + 1));
  const corpus: Document[] = corpusRows.map((row) => ({ id: row._id, text: row.text, ...(row.title ? { title: row.title } : {}) }));
  const abstracts = (await readLines(join(directory, 'corpus_sentences.jsonl.gz'))).map((line, index) => parseLine<unknown>(line, 'scifact/corpus_sentences.jsonl.gz', index + 1));
  const qrels = new Map<string, Record<string, number>>();
  const splits = split === 'all' ? (['train', 'test'] as const) : [split];
  for (const name of splits) {
    for (const [index, line] of (await readLines(join(directory, 'qrels', `${name}.tsv`))).entries()) {
      if (index === 0 && line.startsWith('query-id')) continue;
      const [queryId, documentId, score] = line.split('\t');
      if (!queryId || !documentId) throw new CorruptDataError({ source: `scifact/qrels/${name}.tsv:${index + 1}`, message: 'needs query-id and corpus-id' });
      const entry = qrels.get(queryId) ?? {};
      entry[documentId] = Number(score ?? 1);
      qrels.set(queryId, entry);
    }
  }
  const claimFiles = splits.map((name) => (name === 'train' ? 'claims_train.jsonl' : 'claims_dev.jsonl'));
  const claimRows = [];
  for (const file of claimFiles) claimRows.push(...(await readLines(join(directory, file))).map((line, index) => parseLine<{ id: number }>(line, `scifact/${file}`, index + 1)));
  // Rationale sentences as gold evidence, sentence ids as relevant documents, labels (@factkit/nli-match, the paper's setting).
  const built = buildSciFactLeakageDataset({ claims: claimRows.filter((row) => qrels.has(String(row?.id))), abstracts, name: 'SciFact', limit });
  const [problem] = built.problems;
  if (problem) throw new CorruptDataError({ source: `scifact (${claimFiles.join(', ')})`, message: `${problem.message} (claim ${problem.id ?? problem.index})` });
  const { dataset } = built;
  const claims: StudyClaim[] = dataset.claims.map((claim) => ({
    id: claim.id,
    text: claim.text,
    evidence: dataset.evidence[claim.id] ?? [],
    relevant: unit === 'sentence' ? (dataset.qrels[claim.id] ?? {}) : (qrels.get(claim.id) ?? {}),
    ...(dataset.labels?.[claim.id] ? { label: dataset.labels[claim.id] } : {}),
  }));
  const files = [join(directory, 'corpus.jsonl.gz'), join(directory, 'corpus_sentences.jsonl.gz'), ...splits.map((name) => join(directory, 'qrels', `${name}.tsv`)), ...claimFiles.map((file) => join(directory, file))];
  return { name: 'SciFact', unit, files, corpus: unit === 'sentence' ? (dataset.corpus ?? []) : corpus, claims };
}

export interface LoadFeverLiteOptions {
  /** Folder with the FEVER-lite files (the data root's fever-lite/). */
  readonly directory: string;
  /** @default 'validation' */
  readonly split?: 'validation' | 'test';
  /** Keep only the first `limit` claims. @default Infinity */
  readonly limit?: number;
}

/**
 * FEVER-lite: claims with their gold Wikipedia evidence sentences. The 5.4M-page knowledge store is not available,
 * so the corpus is the pool of every evidence sentence of the split (one document per distinct sentence, id =
 * first 16 hex digits of its SHA-256) and a claim's relevant documents are its own evidence sentences. The pool is
 * built from the whole split, even when `limit` keeps fewer claims, so retrieval stays non-trivial.
 */
export async function loadFeverLite(options: LoadFeverLiteOptions): Promise<StudyDataset> {
  const { directory, split = 'validation', limit = Number.POSITIVE_INFINITY } = options;
  const rows = (await readLines(join(directory, `${split}.jsonl`))).map((line, index) => parseLine<{ id: string; claim: string; label?: string; evidence: string[] }>(line, `fever-lite/${split}.jsonl`, index + 1));
  const idOf = (sentence: string) => createHash('sha256').update(sentence).digest('hex').slice(0, 16);
  const pool = new Map<string, Document>();
  const claims: StudyClaim[] = [];
  for (const row of rows) {
    const evidence = [...new Set((row.evidence ?? []).filter((sentence) => typeof sentence === 'string' && sentence.trim() !== ''))];
    for (const sentence of evidence) pool.set(idOf(sentence), { id: idOf(sentence), text: sentence });
    if (evidence.length === 0) continue;
    const label = row.label === 'SUPPORTS' ? 'supported' : row.label === 'REFUTES' ? 'refuted' : undefined;
    claims.push({ id: row.id, text: row.claim, evidence, relevant: Object.fromEntries(evidence.map((sentence) => [idOf(sentence), 1])), ...(label ? { label } : {}) });
  }
  return { name: 'FEVER-lite', unit: 'sentence', files: [join(directory, `${split}.jsonl`)], corpus: [...pool.values()], claims: claims.slice(0, limit) };
}
