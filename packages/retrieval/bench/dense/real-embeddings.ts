/**
 * Real sentence embeddings for the dense benchmarks: USE-lite (offline, 512-d, unit length, `@factkit/use-lite`) vectors
 * of SciFact abstract sentences and FEVER-lite evidence sentences, with SciFact / FEVER-lite claims as held-out queries.
 *
 * USE-lite embeds only a few dozen sentences per second on these machines, so the corpora are subsets (see SUBSETS) and
 * the vectors are cached on disk as raw little-endian Float32 files, one per chunk of texts, named by a SHA-256 of the
 * embedder id and the chunk's texts: a rerun is instant and an interrupted run resumes where it stopped. The cache
 * lives in `packages/retrieval/.factkit-cache/dense-real/` (gitignored); set FACTKIT_DENSE_CACHE to move it.
 *
 *   node --import tsx bench/dense/real-embeddings.ts     (fills the cache, printing progress)
 */
import { requireDataset } from '@factkit/test-utils/data';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const REAL_CACHE_DIRECTORY = process.env['FACTKIT_DENSE_CACHE'] ?? fileURLToPath(new URL('../../.factkit-cache/dense-real/', import.meta.url));

/** Which texts are embedded (subsets: USE-lite runs at ~26–40 sentences/s here). */
export const SUBSETS = {
  scifactSentences: 8000,
  scifactClaims: 400,
  feverEvidence: Infinity,
  feverClaims: 400,
} as const;

export interface RealCollection {
  readonly name: string;
  /** How the corpus and queries were chosen, for reports. */
  readonly description: string;
  readonly corpusTexts: readonly string[];
  readonly queryTexts: readonly string[];
}

/**
 * SciFact: the first 8,000 abstract sentences of `corpus_sentences.jsonl.gz` in file order (of 45,952); queries: the
 * 240 dev claims then the first 160 train claims. FEVER-lite: every distinct evidence sentence of `validation.jsonl`
 * in first-seen order (3,493); queries: its first 400 claims.
 */
export async function loadRealCollections(): Promise<RealCollection[]> {
  const documents = gunzipSync(await readFile(join(requireDataset('scifact'), 'corpus_sentences.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as { abstract: string[] });
  const sentences: string[] = [];
  for (const document of documents) {
    for (const sentence of document.abstract) {
      if (sentences.length < SUBSETS.scifactSentences && sentence.trim().length > 0) sentences.push(sentence.trim());
    }
  }
  const claimsOf = async (file: string) =>
    (await readFile(join(requireDataset('scifact'), file), 'utf8'))
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as { claim: string; evidence?: unknown });
  const scifactClaims = [...(await claimsOf('claims_dev.jsonl')), ...(await claimsOf('claims_train.jsonl'))].slice(0, SUBSETS.scifactClaims).map((row) => row.claim);
  const fever = await claimsOf('fever-lite/validation.jsonl');
  const evidence = new Set<string>();
  for (const row of fever) for (const sentence of row.evidence as string[]) if (sentence.trim().length > 0) evidence.add(sentence.trim());
  return [
    {
      name: 'scifact',
      description: `SciFact: first ${sentences.length} abstract sentences of corpus_sentences.jsonl.gz (of 45,952); queries: ${scifactClaims.length} claims (240 dev, then train)`,
      corpusTexts: sentences,
      queryTexts: scifactClaims,
    },
    {
      name: 'fever-lite',
      description: `FEVER-lite: all ${evidence.size} distinct evidence sentences of validation.jsonl; queries: its first ${SUBSETS.feverClaims} claims`,
      corpusTexts: [...evidence],
      queryTexts: fever.slice(0, SUBSETS.feverClaims).map((row) => row.claim),
    },
  ];
}

interface EmbedderLike {
  readonly id: string;
  readonly dimensions: number;
  embed(request: { texts: string[]; kind: 'query' | 'passage' }): Promise<{ embeddings: Float32Array[] }>;
}

const CHUNK = 256;

/**
 * Embeds `texts` (kind 'passage' or 'query') into one row-major Float32Array, chunk by chunk, reading and writing the
 * chunk cache. `getEmbedder` is called only when a chunk is missing (so a warm cache never loads the model).
 */
export async function embedCached(texts: readonly string[], kind: 'query' | 'passage', getEmbedder: () => Promise<EmbedderLike>, label: string, progress: (message: string) => void): Promise<Float32Array> {
  const dimensions = 512;
  const out = new Float32Array(texts.length * dimensions);
  await mkdir(REAL_CACHE_DIRECTORY, { recursive: true });
  const started = performance.now();
  let embeddedNow = 0;
  for (let start = 0; start < texts.length; start += CHUNK) {
    const chunk = texts.slice(start, start + CHUNK);
    const key = createHash('sha256').update(`use-lite\u0000${kind}\u0000${dimensions}\u0000`).update(chunk.join('\u0000')).digest('hex').slice(0, 32);
    const file = join(REAL_CACHE_DIRECTORY, `${key}.f32`);
    let bytes: Buffer | undefined;
    try {
      bytes = await readFile(file);
      if (bytes.length !== chunk.length * dimensions * 4) bytes = undefined;
    } catch {
      bytes = undefined;
    }
    if (bytes) {
      out.set(new Float32Array(bytes.buffer, bytes.byteOffset, chunk.length * dimensions), start * dimensions);
      continue;
    }
    const embedder = await getEmbedder();
    const vectors = new Float32Array(chunk.length * dimensions);
    for (let i = 0; i < chunk.length; i += 32) {
      const { embeddings } = await embedder.embed({ texts: chunk.slice(i, i + 32), kind });
      embeddings.forEach((vector, j) => vectors.set(vector, (i + j) * dimensions));
      embeddedNow += embeddings.length;
      const seconds = (performance.now() - started) / 1000;
      progress(`${label}: ${Math.min(start + i + 32, texts.length)}/${texts.length} (${(embeddedNow / seconds).toFixed(1)} sentences/s this run)`);
    }
    await writeFile(`${file}.tmp`, new Uint8Array(vectors.buffer));
    await rename(`${file}.tmp`, file);
    out.set(vectors, start * dimensions);
  }
  return out;
}

/** Corpus and query vectors of every collection (cached). */
export async function loadRealEmbeddings(progress: (message: string) => void): Promise<(RealCollection & { corpus: Float32Array; queries: Float32Array })[]> {
  let embedderPromise: Promise<EmbedderLike> | undefined;
  const getEmbedder = () => {
    embedderPromise ??= (async () => {
      const { createUseLiteEmbedder } = await import('@factkit/use-lite');
      return createUseLiteEmbedder() as unknown as EmbedderLike;
    })();
    return embedderPromise;
  };
  const collections = await loadRealCollections();
  const out = [];
  for (const collection of collections) {
    const queries = await embedCached(collection.queryTexts, 'query', getEmbedder, `${collection.name} queries`, progress);
    const corpus = await embedCached(collection.corpusTexts, 'passage', getEmbedder, `${collection.name} corpus`, progress);
    out.push({ ...collection, corpus, queries });
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const collections = await loadRealEmbeddings((message) => process.stderr.write(`[real-embeddings] ${message}\n`));
  for (const collection of collections) process.stdout.write(`${collection.description}: ${collection.corpus.length / 512} corpus + ${collection.queries.length / 512} query vectors cached in ${REAL_CACHE_DIRECTORY}\n`);
}
