// `factkit audit` on SciFact from the data root ($FACTKIT_DATA, else ../shared/data beside the checkout; skipped when
// absent): a scripted Query2doc model copies one gold rationale sentence verbatim for every second claim, and writes an
// unrelated sentence for the others. In the paper's setting (sentence level, rationale sentences as gold) every planted
// leak must be matched and no other claim. Set AUDIT_BIN to measure another build of the CLI the same way.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';

const bin = process.env['AUDIT_BIN'] ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const dataRoot = process.env['FACTKIT_DATA'] ?? resolve(fileURLToPath(new URL('../../../../shared/data', import.meta.url)));
const folder = join(dataRoot, 'scifact');
const present = existsSync(join(folder, 'claims_dev.jsonl')) && existsSync(join(folder, 'corpus_sentences.jsonl.gz'));
const rows = (name: string) =>
  (name.endsWith('.gz') ? gunzipSync(readFileSync(join(folder, name))) : readFileSync(join(folder, name)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

interface ClaimRow {
  id: number;
  claim: string;
  evidence: Record<string, { sentences: number[] }[]>;
}

/** Claim text → leaked sentence (the first rationale sentence) for every second claim with rationales among `claims`. */
function plantLeaks(claims: readonly ClaimRow[]): Map<string, string> {
  const abstracts = new Map(rows('corpus_sentences.jsonl.gz').map((row) => [String(row['doc_id']), row['abstract'] as string[]]));
  const leaks = new Map<string, string>();
  claims
    .filter((row) => Object.keys(row.evidence).length > 0)
    .forEach((row, position) => {
      if (position % 2 !== 0) return;
      const [documentId, sets] = Object.entries(row.evidence)[0]!;
      leaks.set(row.claim, abstracts.get(documentId)![sets[0]!.sentences[0]!]!);
    });
  return leaks;
}

/** Runs the audit with the scripted model on the first `limit` claims; returns its JSON and the leaks planted. */
async function auditWithLeaks(limit: number, firstClaims: number, extra: readonly string[] = []) {
  const claims = (rows('claims_dev.jsonl') as unknown as ClaimRow[]).sort((a, b) => a.id - b.id).slice(0, firstClaims);
  const leaks = plantLeaks(claims);
  const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
  const server = await startScriptedOpenAIServer({
    script: (request) => {
      const body = JSON.stringify(request.body);
      for (const [claim, sentence] of leaks) if (body.includes(escaped(claim))) return { content: sentence };
      return { content: 'The weather in the harbour town was mild all week.' };
    },
  });
  try {
    const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };
    const cache = join(mkdtempSync(join(tmpdir(), 'factkit-audit-scifact-')), 'cache');
    const args = [bin, 'audit', '--beir', folder, '--limit', String(limit), '--json', '--base-url', server.url, '--model', 'scripted-q2d', '--cache-dir', cache, ...extra];
    const { stdout } = await promisify(execFile)(process.execPath, args, { env, maxBuffer: 1 << 26 });
    const report = JSON.parse(stdout) as { claims: number; matchedProportion: { mean: number } | null; counts: Record<string, number>; matchedClaims?: string[] };
    const leakedIds = claims.filter((row) => leaks.has(row.claim)).map((row) => String(row.id));
    return { report, leakedIds };
  } finally {
    await server.close();
  }
}

describe.skipIf(!present)('factkit audit on SciFact (data root)', () => {
  it('sentence level, rationale sentences as gold: every planted leak is matched, no other claim', async () => {
    // The first 60 dev claims (= BEIR test claims) hold 42 with rationales; 21 of them get a leak.
    const { report, leakedIds } = await auditWithLeaks(42, 60);
    console.info(`factkit audit SciFact: ${report.counts['matched']} of ${leakedIds.length} planted leaks matched; matched proportion ${report.matchedProportion?.mean} over ${report.claims} claims`);
    expect(leakedIds).toHaveLength(21);
    expect(report.claims).toBe(42);
    expect(report.matchedClaims?.sort()).toEqual([...leakedIds].sort());
    expect(report.matchedProportion?.mean).toBeCloseTo(21 / 42, 12);
  }, 300_000);

  it('whole relevant abstracts as gold (--unit abstract, the old default) miss verbatim copies: the reason for the setting', async () => {
    // The same 60 claims and 21 leaks; claims without rationales stay in (their gold is their cited abstracts).
    const { report, leakedIds } = await auditWithLeaks(60, 60, ['--unit', 'abstract']);
    const found = (report.matchedClaims ?? []).filter((id) => leakedIds.includes(id)).length;
    console.info(`factkit audit SciFact --unit abstract: ${found} of ${leakedIds.length} planted leaks matched; matched proportion ${report.matchedProportion?.mean} over ${report.claims} claims (planted: ${leakedIds.length / 60})`);
    expect(report.claims).toBe(60);
    expect(found).toBeLessThan(leakedIds.length);
    expect(report.matchedClaims?.every((id) => leakedIds.includes(id))).toBe(true);
  }, 300_000);
});
