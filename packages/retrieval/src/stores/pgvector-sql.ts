/**
 * Every SQL statement the pgvector store sends, in one place. Plain PostgreSQL + pgvector, parameterized
 * ($1, $2 …); the same text runs on PGlite (embedded, WASM) and on a real PostgreSQL server with pgvector.
 * Only the table name is spliced in, and only after `quoteTableName` has checked and quoted it.
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Quotes `table` or `schema.table` as SQL identifiers; returns undefined for anything else. */
export function quoteTableName(table: string): string | undefined {
  const parts = table.split('.');
  if (parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) return undefined;
  return parts.map((part) => `"${part}"`).join('.');
}

/** The pgvector operator for a metric: `<=>` cosine distance, `<#>` negative inner product. */
export function distanceOperator(metric: 'cosine' | 'inner-product'): '<=>' | '<#>' {
  return metric === 'cosine' ? '<=>' : '<#>';
}

export const PGVECTOR_SQL = {
  createExtension: () => 'CREATE EXTENSION IF NOT EXISTS vector',
  createTable: (table: string, dimensions: number) => `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, embedding vector(${Math.trunc(dimensions)}) NOT NULL, metadata jsonb)`,
  /** Approximate HNSW index (optional; without it queries are exact sequential scans). */
  createHnswIndex: (table: string, metric: 'cosine' | 'inner-product') =>
    `CREATE INDEX IF NOT EXISTS ${table.replace(/"/g, '').replace('.', '_')}_embedding_hnsw ON ${table} USING hnsw (embedding ${metric === 'cosine' ? 'vector_cosine_ops' : 'vector_ip_ops'})`,
  /** Multi-row upsert: parameters are (id, '[x,y,…]', metadata JSON or null) per row. */
  upsert: (table: string, rows: number) => {
    const values: string[] = [];
    for (let row = 0; row < rows; row += 1) values.push(`($${3 * row + 1}, $${3 * row + 2}::vector, $${3 * row + 3}::jsonb)`);
    return `INSERT INTO ${table} (id, embedding, metadata) VALUES ${values.join(', ')} ON CONFLICT (id) DO UPDATE SET embedding = EXCLUDED.embedding, metadata = EXCLUDED.metadata`;
  },
  /** Nearest first; $1 = query vector, $2 = limit. Score is a similarity: 1 − cosine distance, or the inner product. */
  query: (table: string, metric: 'cosine' | 'inner-product') => {
    const operator = distanceOperator(metric);
    const score = metric === 'cosine' ? `1 - (embedding ${operator} $1::vector)` : `-(embedding ${operator} $1::vector)`;
    return `SELECT id, metadata, ${score} AS score FROM ${table} ORDER BY embedding ${operator} $1::vector, id LIMIT $2`;
  },
  /** $1 = text[] of ids. */
  delete: (table: string) => `DELETE FROM ${table} WHERE id = ANY($1::text[])`,
  count: (table: string) => `SELECT count(*)::int AS count FROM ${table}`,
} as const;

/** pgvector's text form of a vector: '[x,y,…]' with shortest round-trip decimals of the float32 values. */
export function toVectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}
