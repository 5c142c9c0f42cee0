import { Embeddings } from '@langchain/core/embeddings';

/** A hand-checkable LangChain `Embeddings` for tests: counts of a fixed vocabulary (so cosine similarities can be worked out by hand). */
export class TermCountEmbeddings extends Embeddings {
  constructor(readonly vocabulary: readonly string[]) {
    super({});
  }
  async embedQuery(text: string): Promise<number[]> {
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    return this.vocabulary.map((term) => words.filter((word) => word === term).length);
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return Promise.all(texts.map((text) => this.embedQuery(text)));
  }
}
