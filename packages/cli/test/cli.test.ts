import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
// The BUILT bin: turbo runs this package's build before its tests (turbo.json: test dependsOn build), so a missing
// dist fails here instead of skipping.
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));

describe('factkit (built bin)', () => {
  it('eval prints trec_eval metrics for a BEIR folder and warns about unjudgeable qrels', async () => {
    const { stdout, stderr } = await run(process.execPath, [bin, 'eval', '--beir', fixture, '--metrics', 'ndcg_cut_10,recall_100', '--json']);
    const report = JSON.parse(stdout) as { queries: number; aggregate: Record<string, number> };
    expect(report.queries).toBe(3);
    // q1 and q2: relevant doc at rank 1 → 1; q3: 1 of 2 relevant found at rank 1 → 1 / (1 + 1/log2 3).
    expect(report.aggregate.ndcg_cut_10).toBeCloseTo((1 + 1 + 1 / (1 + 1 / Math.log2(3))) / 3, 4);
    expect(report.aggregate.recall_100).toBeCloseTo((1 + 1 + 0.5) / 3, 4);
    expect(stderr).toMatch(/qrels query "q9" has no text/);
    expect(stderr).toMatch(/document "missing-doc", which is not in the corpus/);
  });

  it('eval --rm3 --run writes a TREC run of the expanded queries; the Markdown report names the setup', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'factkit-cli-')), 'run.trec');
    const { stdout } = await run(process.execPath, [bin, 'eval', '--beir', fixture, '--rm3', '--fb-docs', '1', '--k1', '1.2', '--b', '0.75', '--run', out]);
    expect(stdout).toMatch(/^BM25\+RM3 \(lucene, k1=1\.2, b=0\.75\) on .*tiny-beir \[test\], 3 queries, 4 documents/);
    expect(stdout).toMatch(/ndcg_cut_10/);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines.every((line) => / Q0 d\d 1?\d [\d.e-]+ factkit-bm25-rm3$/.test(line))).toBe(true);
    // Each judged query's relevant document is ranked first.
    expect(
      lines
        .filter((line) => / Q0 \S+ 1 /.test(line))
        .map((line) => line.split(' ').slice(0, 3).join(' '))
        .sort(),
    ).toEqual(['q1 Q0 d1', 'q2 Q0 d2', 'q3 Q0 d3']);
  });

  it('exits 2 (bad input) with a one-line error for a missing folder or a bad number', async () => {
    await expect(run(process.execPath, [bin, 'eval', '--beir', '/nonexistent/beir'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^factkit eval: argument "--beir" names no folder \(\/nonexistent\/beir\): needs a BEIR-format folder such as BEIR SciFact \(https:\/\/github\.com\/beir-cellar\/beir.*downloads nothing\n$/),
    });
    await expect(run(process.execPath, [bin, 'eval', '--beir', fixture, '--k1', 'fast'])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/argument "--k1" must be a number \(got "fast"\)/) });
  });

  it('exits 2 with the usage for no command, an unknown command or eval without --beir; 0 for --help', async () => {
    await expect(run(process.execPath, [bin])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/^usage: factkit <command>/) });
    await expect(run(process.execPath, [bin, 'frobnicate'])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/^factkit: unknown command "frobnicate"/) });
    await expect(run(process.execPath, [bin, 'eval'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^usage: factkit eval --beir[^]*\nfactkit eval: needs a BEIR-format folder such as BEIR SciFact \(https:\/\/github\.com\/beir-cellar\/beir[^\n]*— pass --beir <folder>\n$/),
    });
    const { stdout } = await run(process.execPath, [bin, '--help']);
    expect(stdout).toMatch(/eval {4}BM25/);
  });

  it('--version prints the package version; every command of the table prints its own usage on --help and -h (exit 0)', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await run(process.execPath, [bin, '--version'])).stdout).toBe(`${version}\n`);
    const { stdout: usage } = await run(process.execPath, [bin, '--help']);
    const commands = [...(usage.split('commands:\n')[1]?.split('\n\n')[0] ?? '').matchAll(/^ {2}(\w+) +\S/gm)].map((match) => match[1]);
    expect(commands).toEqual(['check', 'eval', 'index', 'search', 'expand', 'audit', 'enrich', 'trace', 'models']);
    for (const command of commands) {
      for (const help of ['--help', '-h']) expect((await run(process.execPath, [bin, command as string, help])).stdout).toMatch(new RegExp(`^usage: factkit ${command} `));
    }
    expect((await run(process.execPath, [bin, 'eval', '--help'])).stdout).toMatch(/^usage: factkit eval --beir [^]*\n\nusage: factkit eval --qrels /);
  }, 60_000);
});
