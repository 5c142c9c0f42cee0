import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Document, Qrels } from '@factkit/core';
import { createSeededRandom } from '@factkit/core';

export interface SciFactData {
  readonly corpus: Document[];
  readonly queries: Array<{ id: string; text: string }>;
  /** Abstract-level qrels of BEIR's SciFact test split (= original SciFact dev claims). */
  readonly qrels: Qrels;
}

/** Reads a BEIR SciFact folder (the data root's scifact/): the corpus, the claims of the test qrels and those qrels. */
export function loadSciFact(directory: string): SciFactData {
  const corpus = gunzipSync(readFileSync(`${directory}/corpus.jsonl.gz`))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line) as { _id: string; title: string; text: string };
      return { id: row._id, text: row.text, title: row.title };
    });
  const qrels: Record<string, Record<string, number>> = {};
  for (const line of readFileSync(`${directory}/qrels/test.tsv`, 'utf8').split('\n').slice(1)) {
    const [queryId, documentId, score] = line.split('\t');
    if (!queryId || !documentId) continue;
    (qrels[queryId] ??= {})[documentId] = Number(score);
  }
  const queries = readFileSync(`${directory}/queries.jsonl`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { _id: string; text: string })
    .filter((row) => qrels[row._id] !== undefined)
    .map((row) => ({ id: row._id, text: row.text }));
  return { corpus, queries, qrels };
}

/**
 * The documented subset used for the slow encoder: every gold abstract of the evaluated claims plus `distractors`
 * other abstracts drawn with a seeded generator (mulberry32 via core's createSeededRandom).
 */
export function selectSubset(data: SciFactData, options: { distractors: number; seed: number }): Document[] {
  const gold = new Set(Object.values(data.qrels).flatMap((documents) => Object.keys(documents)));
  const others = data.corpus.filter((document) => !gold.has(document.id));
  const random = createSeededRandom(options.seed);
  for (let i = others.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [others[i], others[j]] = [others[j]!, others[i]!];
  }
  const chosen = new Set([...gold, ...others.slice(0, options.distractors).map((document) => document.id)]);
  return data.corpus.filter((document) => chosen.has(document.id));
}

/** `count` claims drawn with a seeded generator (all when count >= the number of claims), with their qrels. */
export function selectClaims(data: SciFactData, options: { count: number; seed: number }): SciFactData {
  if (options.count >= data.queries.length) return data;
  const random = createSeededRandom(options.seed);
  const order = data.queries.map((query) => ({ query, key: random() })).sort((a, b) => a.key - b.key);
  const queries = order
    .slice(0, options.count)
    .map((entry) => entry.query)
    .sort((a, b) => Number(a.id) - Number(b.id));
  const qrels = Object.fromEntries(queries.map((query) => [query.id, data.qrels[query.id]!]));
  return { corpus: data.corpus, queries, qrels };
}
