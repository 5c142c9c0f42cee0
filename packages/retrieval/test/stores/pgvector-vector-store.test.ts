import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { FactkitError, InvalidArgumentError } from '@factkit/core';
import { describeVectorStoreContract } from '@factkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInMemoryVectorStore } from '../../src/stores/in-memory-vector-store.js';
import { PGVECTOR_SQL, quoteTableName } from '../../src/stores/pgvector-sql.js';
import { createPgVectorStore, type SqlClient } from '../../src/stores/pgvector-vector-store.js';

// One embedded PostgreSQL (PGlite + pgvector) for the whole file; every store gets its own table.
let database: PGlite;
let tables = 0;
const nextTable = () => {
  tables += 1;
  return `vectors_${tables}`;
};
const databaseReady = PGlite.create({ extensions: { vector } }).then((created) => {
  database = created;
  return created;
});

beforeAll(async () => {
  await databaseReady;
}, 120_000);
afterAll(async () => {
  await database?.close();
});

describeVectorStoreContract('pgvector via PGlite (cosine)', async () => createPgVectorStore({ client: await databaseReady, table: nextTable(), dimensions: 4 }));
describeVectorStoreContract('pgvector via PGlite (inner product)', async () => createPgVectorStore({ client: await databaseReady, table: `public.${nextTable()}`, dimensions: 4, metric: 'inner-product' }));
describeVectorStoreContract('pgvector via PGlite (HNSW index)', async () => createPgVectorStore({ client: await databaseReady, table: nextTable(), dimensions: 4, hnswIndex: true }));

describe('createPgVectorStore', () => {
  it('agrees with the exact in-memory store on random data (cosine and inner product)', async () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const dimensions = 24;
    const records = Array.from({ length: 300 }, (_, i) => ({ id: `r${i}`, vector: Float32Array.from({ length: dimensions }, random), metadata: { i } }));
    for (const metric of ['cosine', 'inner-product'] as const) {
      // batchSize 64 exercises several multi-row INSERT statements
      const pg = createPgVectorStore({ client: database, table: nextTable(), dimensions, metric, batchSize: 64 });
      const memory = createInMemoryVectorStore({ dimensions, metric });
      await pg.upsert({ records });
      await memory.upsert({ records });
      expect(await pg.count()).toBe(300);
      for (let q = 0; q < 5; q += 1) {
        const query = Float32Array.from({ length: dimensions }, random);
        const expected = (await memory.query({ vector: query, topK: 10 })).matches;
        const actual = (await pg.query({ vector: query, topK: 10 })).matches;
        // pgvector accumulates in float32: same ids, scores within float32 rounding
        expect(actual.map((match) => match.id)).toEqual(expected.map((match) => match.id));
        actual.forEach((match, i) => expect(match.score).toBeCloseTo(expected[i]!.score, 5));
        expect(actual[0]!.metadata).toEqual(expected[0]!.metadata);
      }
    }
  });

  it('round-trips metadata as JSON, deletes many ids at once, and scores a zero vector 0', async () => {
    const store = createPgVectorStore({ client: database, table: nextTable(), dimensions: 2 });
    await store.upsert({
      records: [
        { id: "it's", vector: Float32Array.from([1, 0]), metadata: { text: 'quote \' and "double"', nested: { list: [1, null] } } },
        { id: 'zero', vector: Float32Array.from([0, 0]) },
        { id: 'other', vector: Float32Array.from([0, 1]) },
      ],
    });
    const { matches } = await store.query({ vector: Float32Array.from([1, 0]), topK: 3 });
    expect(matches[0]).toEqual({ id: "it's", score: 1, metadata: { text: 'quote \' and "double"', nested: { list: [1, null] } } });
    expect(matches.map((match) => match.id)).toEqual(["it's", 'other', 'zero']);
    expect(matches[2]!.score).toBe(0);
    await store.delete({ ids: ["it's", 'zero'] });
    expect(await store.count()).toBe(1);
  });

  it('keeps the SQL parameterized: ids and metadata never reach the statement text', async () => {
    const statements: string[] = [];
    const recording: SqlClient = {
      async query(text, params) {
        statements.push(text);
        return database.query(text, params);
      },
    };
    const store = createPgVectorStore({ client: recording, table: nextTable(), dimensions: 2 });
    await store.upsert({ records: [{ id: "x'); DROP TABLE vectors_1; --", vector: Float32Array.from([1, 2]), metadata: { evil: "'; --" } }] });
    await store.query({ vector: Float32Array.from([1, 2]) });
    await store.delete({ ids: ["x'); DROP TABLE vectors_1; --"] });
    expect(statements.some((statement) => statement.includes('DROP'))).toBe(false);
    expect(await store.count()).toBe(0);
    expect(PGVECTOR_SQL.upsert('"t"', 2)).toBe(
      'INSERT INTO "t" (id, embedding, metadata) VALUES ($1, $2::vector, $3::jsonb), ($4, $5::vector, $6::jsonb) ON CONFLICT (id) DO UPDATE SET embedding = EXCLUDED.embedding, metadata = EXCLUDED.metadata',
    );
    expect(PGVECTOR_SQL.query('"t"', 'inner-product')).toBe('SELECT id, metadata, -(embedding <#> $1::vector) AS score FROM "t" ORDER BY embedding <#> $1::vector, id LIMIT $2');
  });

  it('rejects bad options and reports setup failures as load_failed', async () => {
    expect(quoteTableName('a.b.c')).toBeUndefined();
    const argumentOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return InvalidArgumentError.isInstance(error) ? error.argument : 'other';
      }
      return undefined;
    };
    expect(argumentOf(() => createPgVectorStore({ client: database, table: 'bad name; drop', dimensions: 3 }))).toBe('table');
    expect(argumentOf(() => createPgVectorStore({ client: database, table: 't', dimensions: 0 }))).toBe('dimensions');
    expect(argumentOf(() => createPgVectorStore({ client: {} as SqlClient, table: 't', dimensions: 3 }))).toBe('client');
    const failing = createPgVectorStore({
      client: {
        async query() {
          throw new Error('connection refused');
        },
      },
      table: 't',
      dimensions: 3,
    });
    const error = await failing.count().catch((caught: unknown) => caught);
    expect(FactkitError.isInstance(error) && error.code).toBe('load_failed');
    expect((error as Error).message).toMatch(/connection refused/);
  });
});
