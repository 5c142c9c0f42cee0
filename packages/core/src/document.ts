/**
 * Where a document comes from: the collection it belongs to (e.g. `'WordNet 3.1'`), a URL for the document itself
 * when it has one, and the collection's licence. A typed field, so no package has to read it out of `metadata`.
 */
export interface DocumentSource {
  /** The collection or site, e.g. `'WordNet 3.1'`, `'Wikipedia'`, `'SciFact'`. */
  readonly name: string;
  /** A URL for this document, when it has one. */
  readonly url?: string;
  /** The licence the collection is distributed under, e.g. `'WordNet 3.0 licence'`, `'CC BY-SA 4.0'`. */
  readonly license?: string;
}

/** A unit of the corpus: an abstract, a web page, a Wikipedia sentence. Plain and JSON-serializable. */
export interface Document {
  readonly id: string;
  readonly text: string;
  readonly title?: string;
  /** Where the document comes from (collection, URL, licence); retrievers pass it on to the evidence they return. */
  readonly source?: DocumentSource;
  /** The user's own data; factkit never reads meaning from it. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
