import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptDataError, splitSentences, type Document, type QueryExpander, type Retriever } from '@factkit/core';
import { buildAveritecReferences, computeAveritecEvidenceScore, computeBertScoreMatrix, computeHungarianMatchScore, type AveritecQuestion, type SynonymLookup, type TokenEmbeddings } from '@factkit/metrics';
import type { EvidenceScorer } from '@factkit/nli-match';
import type { StudyClaim, StudyDataset } from './datasets.js';

interface AveritecRow {
  claim_id: number;
  claim: string;
  label: string;
  questions: AveritecQuestion[];
}

/**
 * AVeriTeC dev (500 claims upstream; 400 in the data root): the gold evidence of a claim is its human-written QA evidence as the
 * official scorer builds it (`question + " " + answer` per answer); verdicts have four labels. The knowledge store
 * is per claim and not shipped (see {@link loadAveritecKnowledgeStore}); `corpus` is empty.
 */
export async function loadAveritec(options: { readonly directory: string; readonly limit?: number }): Promise<StudyDataset> {
  const { directory, limit = Number.POSITIVE_INFINITY } = options;
  const file = join(directory, 'dev.jsonl');
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const claims: StudyClaim[] = [];
  lines.forEach((line, index) => {
    let row: AveritecRow;
    try {
      row = JSON.parse(line) as AveritecRow;
    } catch (cause) {
      throw new CorruptDataError({ source: `averitec/dev.jsonl:${index + 1}`, message: 'is not valid JSON', cause });
    }
    const evidence = buildAveritecReferences(row.questions ?? []).questionAnswer;
    if (evidence.length === 0) return;
    claims.push({ id: String(row.claim_id), text: row.claim, evidence, relevant: {}, label: row.label.toLowerCase() });
  });
  return { name: 'AVeriTeC', unit: 'sentence', files: [file], corpus: [], claims: claims.slice(0, limit) };
}

/**
 * Reads AVeriTeC's per-claim knowledge store: a folder with one `<claim_id>.json` file per claim, each holding JSON
 * lines `{ "url": …, "url2text": [sentences…] }` (the official `output_dev` layout). Every sentence is a document
 * `<claim id>:<url index>:<sentence index>`. Claims without a file are listed in `missing`.
 */
export async function loadAveritecKnowledgeStore(directory: string, claimIds: readonly string[]): Promise<{ stores: Map<string, Document[]>; missing: string[] }> {
  const present = new Set(await readdir(directory));
  const stores = new Map<string, Document[]>();
  const missing: string[] = [];
  for (const claimId of claimIds) {
    const name = `${claimId}.json`;
    if (!present.has(name)) {
      missing.push(claimId);
      continue;
    }
    const documents: Document[] = [];
    const lines = (await readFile(join(directory, name), 'utf8')).split('\n').filter((line) => line.trim() !== '');
    lines.forEach((line, urlIndex) => {
      let row: { url?: string; url2text?: unknown };
      try {
        row = JSON.parse(line) as { url?: string; url2text?: unknown };
      } catch (cause) {
        throw new CorruptDataError({ source: `${name}:${urlIndex + 1}`, message: 'is not valid JSON', cause });
      }
      const texts = Array.isArray(row.url2text) ? row.url2text.filter((text): text is string => typeof text === 'string') : [];
      // url2text is a list of passages; split them so the unit of retrieval is a sentence, as in the paper.
      let sentenceIndex = 0;
      for (const passage of texts) {
        for (const sentence of splitSentences(passage)) {
          documents.push({ id: `${claimId}:${urlIndex}:${sentenceIndex}`, text: sentence, metadata: { url: row.url ?? null } });
          sentenceIndex += 1;
        }
      }
    });
    stores.set(claimId, documents);
  }
  return { stores, missing };
}

/**
 * A retriever and an expander that route each claim (by `query.id`, which the study sets to the claim id) to its own
 * knowledge store, built lazily with `build`. A claim without a store gets no evidence and a `no-knowledge-store` problem.
 */
export function createPerClaimWiring(stores: ReadonlyMap<string, readonly Document[]>, build: (documents: readonly Document[]) => { retriever: Retriever; rm3: QueryExpander }): { retriever: Retriever; rm3: QueryExpander } {
  const built = new Map<string, { retriever: Retriever; rm3: QueryExpander }>();
  const wiringOf = (claimId: string | undefined) => {
    if (claimId === undefined) return undefined;
    const cached = built.get(claimId);
    if (cached) return cached;
    const documents = stores.get(claimId);
    if (!documents || documents.length === 0) return undefined;
    const wiring = build(documents);
    built.set(claimId, wiring);
    return wiring;
  };
  const first = wiringOf([...stores.keys()][0]);
  return {
    retriever: {
      id: `per-claim(${first?.retriever.id ?? 'bm25'})`,
      async retrieve(request) {
        const wiring = wiringOf(request.query.id);
        if (!wiring) return { evidence: [], problems: [{ code: 'no-knowledge-store', message: `no knowledge store for claim ${request.query.id ?? '(no id)'}` }] };
        return wiring.retriever.retrieve(request);
      },
    },
    rm3: {
      id: `per-claim(${first?.rm3.id ?? 'rm3'})`,
      usesLanguageModel: false,
      async expand(request) {
        const wiring = wiringOf(request.query.id);
        if (!wiring) return { ...request.query, original: request.query, generations: [] };
        return wiring.rm3.expand(request);
      },
    },
  };
}

/**
 * The paper's AVeriTeC evidence metrics on the top-k retrieved sentences: Hungarian METEOR (the official scorer's
 * matching, NLTK tokenisation, WordNet synonyms when given) and Hungarian BERTScore F1 with the token embeddings
 * given (the paper used a BERT model; offline this is GloVe tokens, named so in the report).
 */
export function createAveritecEvidenceScorer(options: { readonly synonyms?: SynonymLookup; readonly embedTokens?: (text: string) => TokenEmbeddings }): EvidenceScorer {
  const { synonyms, embedTokens } = options;
  return {
    names: embedTokens ? ['meteor', 'bertscore'] : ['meteor'],
    async score({ texts, evidence }): Promise<Record<string, number>> {
      const meteor = computeAveritecEvidenceScore(texts, evidence, synonyms ? { synonyms } : {}).score;
      if (!embedTokens) return { meteor };
      if (texts.length === 0) return { meteor, bertscore: 0 };
      const matrix = await computeBertScoreMatrix(texts, evidence, { embedTokens });
      return { meteor, bertscore: computeHungarianMatchScore(matrix, { referenceCount: evidence.length }).score };
    },
  };
}
