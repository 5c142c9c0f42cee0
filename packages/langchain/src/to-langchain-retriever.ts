import type { Evidence, EvidenceOrigin, Retriever } from '@factkit/core';
import { assertNonNegativeInteger, InvalidArgumentError } from '@factkit/core';
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';

/** What a factkit evidence carries into a LangChain document's `metadata.factkit` (the rest of `metadata` is the user's). */
export interface FactkitDocumentFields {
  readonly documentId: string;
  readonly score: number;
  readonly rank?: number;
  readonly origin: EvidenceOrigin;
}

/** The metadata of a LangChain document made from factkit evidence. */
export interface FactkitDocumentMetadata extends Record<string, unknown> {
  readonly factkit: FactkitDocumentFields;
}

export interface ToLangChainRetrieverOptions extends BaseRetrieverInput {
  /** Documents returned per query. @default 4 (LangChain's vector-store retriever default) */
  readonly topK?: number;
}

/**
 * A factkit evidence as a LangChain `Document`: `pageContent` = text, `id` = the evidence's `documentId`, `metadata` =
 * the source document's own metadata plus `factkit: { documentId, score, rank, origin }`.
 */
export function evidenceToDocument(evidence: Evidence): Document<FactkitDocumentMetadata> {
  const factkit: FactkitDocumentFields = {
    documentId: evidence.documentId,
    score: evidence.score,
    ...(evidence.rank === undefined ? {} : { rank: evidence.rank }),
    origin: evidence.origin,
  };
  return new Document<FactkitDocumentMetadata>({ pageContent: evidence.text, id: evidence.documentId, metadata: { ...evidence.metadata, factkit } });
}

class FactkitLangChainRetriever extends BaseRetriever<FactkitDocumentMetadata> {
  static lc_name(): string {
    return 'FactkitRetriever';
  }
  lc_namespace = ['factkit', 'retrievers'];
  readonly retriever: Retriever;
  readonly topK: number;

  constructor(retriever: Retriever, options: ToLangChainRetrieverOptions) {
    const { topK = 4, ...fields } = options;
    super(fields);
    this.retriever = retriever;
    this.topK = topK;
  }

  override async _getRelevantDocuments(query: string, runManager?: CallbackManagerForRetrieverRun): Promise<Document<FactkitDocumentMetadata>[]> {
    // LangChain passes no AbortSignal to _getRelevantDocuments; invoke() races the call against config.signal itself.
    void runManager;
    const { evidence } = await this.retriever.retrieve({ query: { text: query }, topK: this.topK });
    return evidence.map(evidenceToDocument);
  }
}

/**
 * Any factkit {@link Retriever} as a LangChain `BaseRetriever` (usable wherever LangChain takes a retriever:
 * `retriever.invoke(query)`, chains, `RunnableSequence`s). Each document is one evidence (`pageContent` = its text,
 * `id` = its document id, `metadata.factkit` = score, rank and origin), in the factkit ranking's order.
 * @throws InvalidArgumentError when `retriever` is not a Retriever or `topK` is not a non-negative integer.
 * @example const lcRetriever = toLangChainRetriever(createBm25Retriever(documents), { topK: 5 });
 */
export function toLangChainRetriever(retriever: Retriever, options: ToLangChainRetrieverOptions = {}): BaseRetriever<FactkitDocumentMetadata> {
  const where = 'toLangChainRetriever';
  if (!retriever || typeof retriever.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a factkit Retriever (an object with retrieve())' });
  assertNonNegativeInteger('topK', options.topK ?? 4, where);
  return new FactkitLangChainRetriever(retriever, options);
}
