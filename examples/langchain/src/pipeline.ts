import { createDrafterGenerator, createNliVerifier } from '@factkit/claim-query';
import type { Document as FactkitDocument } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import { createCheckerRunnable, fromLangChainVectorStore, toLangChainEmbeddings, toLangChainRetriever } from '@factkit/langchain';
import { createFeatureNliModel } from '@factkit/nli-models';
import { createBm25Retriever } from '@factkit/retrieval';
import { loadWordNetDocuments } from '@factkit/retrieval/node';
import { Document } from '@langchain/core/documents';
import { RunnableLambda } from '@langchain/core/runnables';
// @langchain/core's in-memory cosine vector store (LangChain's MemoryVectorStore, shipped in core under utils/testing).
// In an app this is your MemoryVectorStore, Chroma, PGVector, ...: anything with similaritySearchWithScore.
import { FakeVectorStore as InMemoryVectorStore } from '@langchain/core/utils/testing';

/** The pieces of the example, built offline from WordNet 3.1 instance synsets (people, places, works, events). */
export async function buildPipeline(options: { limit?: number } = {}) {
  const wordnet: FactkitDocument[] = await loadWordNetDocuments({ instancesOnly: true });
  const corpus = options.limit === undefined ? wordnet : wordnet.slice(0, options.limit);
  const glove = createGloveEmbedder();

  // 1. factkit → LangChain: a factkit BM25 retriever inside a LangChain chain (retriever | format).
  const lcRetriever = toLangChainRetriever(createBm25Retriever(corpus), { topK: 3 });
  const searchChain = lcRetriever.pipe(
    RunnableLambda.from((documents: Document[]) => documents.map((document) => `${document.metadata.factkit.rank}. [${document.id}] (${document.metadata.factkit.score.toFixed(2)}) ${document.pageContent}`).join('\n')),
  );

  // 2. LangChain → factkit: a LangChain vector store (filled through factkit's GloVe embedder) as factkit's Retriever.
  const store = new InMemoryVectorStore(toLangChainEmbeddings(glove));
  await store.addDocuments(corpus.map((document) => new Document({ pageContent: document.text, id: document.id, metadata: { id: document.id, title: document.title, source: document.source?.name } })));
  const storeRetriever = fromLangChainVectorStore(store, { id: 'langchain-memory(glove)' });

  // 3. factkit's checker as a LangChain Runnable, searching the LangChain store: LLM-free drafter (a baseline, not
  //    JointCQ) → the store → the offline feature NLI verifier.
  const check = createCheckerRunnable({
    generator: createDrafterGenerator(),
    retriever: storeRetriever,
    verifier: createNliVerifier({ nli: createFeatureNliModel({ embedder: glove }) }),
    topK: 5,
  });
  const checkChain = check.pipe(
    RunnableLambda.from((result: Awaited<ReturnType<typeof check.invoke>>) => ({
      question: result.question,
      answer: result.answer,
      label: result.responseLabel ?? `failed (${result.failedStage})`,
      claims: result.claims.map((claim) => ({ claim: claim.claim.text, verdict: claim.verdict.label ?? `${claim.verdict.status}${claim.verdict.reason ? `: ${claim.verdict.reason}` : ''}`, evidence: claim.evidence[0]?.origin.documentId })),
    })),
  );
  return { corpus, corpusSize: corpus.length, searchChain, storeRetriever, check, checkChain };
}
