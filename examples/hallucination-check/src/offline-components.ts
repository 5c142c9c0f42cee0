import type { ClaimQueryGenerator, ClaimVerifier } from '@factkit/claim-query';
import { createDrafterGenerator, createNliVerifier } from '@factkit/claim-query';
import type { Document, Retriever } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import { createFeatureNliModel } from '@factkit/nli-models';
import { createBm25Retriever, createChineseAnalyzer } from '@factkit/retrieval';
import { poolEvidence, type FeverClaim } from './fever-compose.js';
import { readJsonl } from './shared.js';

/** The example's local corpus: pooled FEVER-lite evidence (English) and HalluQA `Source` passages (Chinese). */
export function loadLocalCorpus(): { english: Document[]; chinese: Document[] } {
  const english = poolEvidence(readJsonl<FeverClaim>('fever-lite', 'validation.jsonl'));
  const seen = new Set<string>();
  const chinese: Document[] = [];
  for (const row of readJsonl<{ question_id: number; Source?: string }>('halluqa', 'questions.jsonl')) {
    // A Source starts with its URL line(s) when it has one; the URL becomes the document's typed source URL.
    const lines = (row.Source ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const url = lines.find((line) => /^https?:\/\//.test(line));
    const text = lines.filter((line) => !/^https?:\/\//.test(line)).join(' ');
    if (!text || seen.has(text)) continue;
    seen.add(text);
    chinese.push({ id: `halluqa-source-${row.question_id}`, text, source: { name: 'HalluQA', ...(url ? { url } : {}) } });
  }
  return { english, chinese };
}

/** A Retriever that searches the Chinese index for queries with more Han characters than letters, else the English one. */
export function createBilingualRetriever(english: Retriever, chinese: Retriever): Retriever {
  return {
    id: `bilingual(${english.id}|${chinese.id})`,
    async retrieve(request) {
      const text = request.query.text;
      const han = (text.match(/[\u4e00-\u9fff]/gu) ?? []).length;
      const latin = (text.match(/[A-Za-z]/g) ?? []).length;
      return (han > latin ? chinese : english).retrieve(request);
    },
  };
}

/**
 * Offline pipeline parts: the LLM-free drafter (a baseline, not JointCQ), BM25, and the trained offline NLI verifier
 * (`@factkit/nli-models` feature model on GloVe; it beat the lexical model on the FEVER-composed evaluation).
 */
export function createOfflineComponents(): { generator: ClaimQueryGenerator; retriever: Retriever; verifier: ClaimVerifier; corpusSize: number } {
  const corpus = loadLocalCorpus();
  const retriever = createBilingualRetriever(createBm25Retriever(corpus.english), createBm25Retriever(corpus.chinese, { analyzer: createChineseAnalyzer() }));
  return {
    generator: createDrafterGenerator(),
    retriever,
    verifier: createNliVerifier({ nli: createFeatureNliModel({ embedder: createGloveEmbedder() }) }),
    corpusSize: corpus.english.length + corpus.chinese.length,
  };
}
