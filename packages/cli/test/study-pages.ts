import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The four study pages, each an HTML file made by the built bin from a run on the small fixtures. */
export interface StudyPages {
  readonly dir: string;
  readonly audit: string;
  readonly trace: string;
  readonly enrich: string;
  readonly eval: string;
}

/** Six queries; run a ranks the relevant document first, run b second: every paired difference is positive. */
export const EVAL_QUERIES = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];

/**
 * Runs `factkit audit`, `trace`, `enrich` and `eval --runs` on the repo's small fixtures (offline: RM3 + lexical NLI,
 * the offline trace baselines, the lead-sentence enricher) with `--html`, into a fresh temporary folder.
 */
export async function makeStudyPages(): Promise<StudyPages> {
  const dir = mkdtempSync(join(tmpdir(), 'factkit-pages-'));
  const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '', XDG_CACHE_HOME: join(dir, 'cache') };
  const factkit = (args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 240_000 });
  const pages = { dir, audit: join(dir, 'audit.html'), trace: join(dir, 'trace.html'), enrich: join(dir, 'enrich.html'), eval: join(dir, 'eval.html') };
  writeFileSync(join(dir, 'qrels.txt'), EVAL_QUERIES.map((q) => `${q} 0 rel-${q} 1`).join('\n'));
  writeFileSync(join(dir, 'a.trec'), EVAL_QUERIES.map((q) => `${q} Q0 rel-${q} 1 2.0 a\n${q} Q0 x-${q} 2 1.0 a`).join('\n'));
  writeFileSync(join(dir, 'b.trec'), EVAL_QUERIES.map((q) => `${q} Q0 x-${q} 1 2.0 b\n${q} Q0 rel-${q} 2 1.0 b`).join('\n'));
  await Promise.all([
    factkit(['audit', '--beir', join(fixtures, 'tiny-beir'), '--html', pages.audit]),
    factkit(['trace', '--corpus', join(fixtures, 'trace/corpus.jsonl'), '--queries', join(fixtures, 'trace/statements.jsonl'), '--k', '3', '--leaf-size', '4', '--html', pages.trace, '--json']),
    factkit(['enrich', '--input', join(fixtures, 'enrich/docs.jsonl'), '--out', join(dir, 'chunks.jsonl'), '--queries', join(fixtures, 'enrich/queries.jsonl'), '--max-tokens', '64', '--html', pages.enrich]),
    factkit(['eval', '--qrels', join(dir, 'qrels.txt'), '--runs', `${join(dir, 'a.trec')},${join(dir, 'b.trec')}`, '--metrics', 'ndcg_cut_10,recall_100,map', '--html', pages.eval]),
  ]);
  return pages;
}
