import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer, type ScriptedReply, type ScriptedRequest } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { findDataRoot } from '@factkit/test-utils/data';
import { describeWithData } from '@factkit/test-utils';
// The data root (read in the suites below, which are skipped without it).
const DATA_ROOT = findDataRoot() ?? '<no data root>';
import { EXIT_CODES, runCli } from '../src/cli.js';
import { loadSciFact, type StudyClaim } from '../src/datasets.js';

const QUERY2DOC_PREFIX = 'Write a passage that answers the following query:\n';
const CLAIMS = 6;
const REPEATS = 2;

const userPrompt = (request: ScriptedRequest) => (request.body as { messages?: { role: string; content: string }[] }).messages?.filter((message) => message.role === 'user').at(-1)?.content ?? '';

/** A small deterministic hash so the same request always meets the same fault (faults survive retries). */
function bucket(text: string, buckets: number): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  return hash % buckets;
}

/**
 * Generations copy the gold evidence (every claim would be matched). Faults: the first claim's generations always
 * answer 500; NLI requests fall into buckets that always answer 429, always drop the connection, always answer
 * garbage, or answer correctly; every first attempt of a correct request gets a transient 500 (healed by retries).
 */
function faultyScript(claims: readonly StudyClaim[]) {
  const byText = new Map(claims.map((claim, index) => [claim.text, { claim, index }]));
  const seen = new Set<string>();
  const tally = { generation500: 0, nli429: 0, nliDrop: 0, nliGarbage: 0, transient: 0 };
  const script = (request: ScriptedRequest): ScriptedReply => {
    const prompt = userPrompt(request);
    if (prompt.startsWith(QUERY2DOC_PREFIX)) {
      const entry = byText.get(prompt.slice(QUERY2DOC_PREFIX.length));
      if (!entry) return { status: 400, body: { error: { message: 'unexpected claim' } } };
      if (entry.index === 0) {
        tally.generation500 += 1;
        return { status: 500 };
      }
      return { content: entry.claim.evidence.join(' ') };
    }
    const premise = /\nS1: ([\s\S]*)\nS2: /.exec(prompt)?.[1] ?? '';
    const hypothesis = /\nS2: ([\s\S]*)\nLabel:$/.exec(prompt)?.[1] ?? '';
    switch (bucket(`${premise}|${hypothesis}`, 5)) {
      case 0:
        tally.nli429 += 1;
        return { status: 429, headers: { 'retry-after': '0' } };
      case 1:
        tally.nliDrop += 1;
        return { drop: true };
      case 2:
        tally.nliGarbage += 1;
        return { content: '¯\\_(ツ)_/¯ <<<%%%' };
      default: {
        if (!seen.has(prompt)) {
          seen.add(prompt);
          tally.transient += 1;
          return { status: 500 };
        }
        return { content: premise.includes(hypothesis) || hypothesis.includes(premise) ? 'entailment' : 'neutral' };
      }
    }
  };
  return { script, tally };
}

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface ResultsFile {
  methods: {
    method: string;
    counts: { matched: number; unmatched: number; unknown: number; expansionFailed: number };
    runs: { claimId: string; matched: boolean | null; nliLabels: (string | null)[][]; generations: string[]; problems: { code: string }[] }[];
  }[];
}

describeWithData('scifact', 'leakage-study under 429 / 500 / dropped-connection / garbage faults', () => {
  it('puts no claim in M or ¬M without a successful NLI judgement, counts the failures, and exits 3', async () => {
    const dataset = await loadSciFact({ directory: join(DATA_ROOT, 'scifact'), split: 'train', limit: CLAIMS });
    const { script, tally } = faultyScript(dataset.claims);
    server = await startScriptedOpenAIServer({ script });
    const directory = await mkdtemp(join(tmpdir(), 'leakage-faults-'));
    const args = ['--split', 'train', '--limit', String(CLAIMS), '--methods', 'query2doc', '--repeats', String(REPEATS), '--nli', 'llm'];
    args.push('--model', 'scripted-model', '--out', join(directory, 'out'), '--cache', join(directory, 'cache'), '--concurrency', '2');
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-not-a-real-key' };
    const outcome = await runCli(args, { env, log: () => {} });

    // Every kind of fault really happened.
    expect(tally.generation500).toBeGreaterThan(0);
    expect(tally.nli429).toBeGreaterThan(0);
    expect(tally.nliDrop).toBeGreaterThan(0);
    expect(tally.nliGarbage).toBeGreaterThan(0);
    expect(tally.transient).toBeGreaterThan(0);

    const { methods } = JSON.parse(await readFile(outcome.resultsPath, 'utf8')) as ResultsFile;
    const query2doc = methods.find((entry) => entry.method === 'Query2doc');
    const runs = query2doc?.runs ?? [];
    expect(runs).toHaveLength(CLAIMS * REPEATS);
    let matched = 0;
    let unmatched = 0;
    let unknown = 0;
    for (const run of runs) {
      const labels = run.nliLabels.flat();
      if (run.matched === true) {
        matched += 1;
        expect(labels, `claim ${run.claimId} is M only with an entailment label that came back`).toContain('entailment');
      } else if (run.matched === false) {
        unmatched += 1;
        expect(
          labels.every((label) => label !== null),
          `claim ${run.claimId} is ¬M only when every NLI pair was judged`,
        ).toBe(true);
        expect(labels).not.toContain('entailment');
      } else {
        unknown += 1;
      }
    }
    // The first claim's generations all failed: no metrics, no match, counted as failed expansions.
    const failedExpansions = runs.filter((run) => run.problems.some((problem) => problem.code === 'expansion-failed'));
    expect(failedExpansions.map((run) => run.claimId)).toEqual([dataset.claims[0]?.id, dataset.claims[0]?.id]);
    expect(query2doc?.counts).toMatchObject({ matched, unmatched, expansionFailed: 2 });
    expect(query2doc?.counts.unknown).toBe(unknown - 2);
    expect(unknown - 2).toBeGreaterThan(0);
    expect(matched).toBeGreaterThan(0);

    // The figures quoted in the closing note of issue 8.
    console.info(`faults: ${JSON.stringify(tally)}; runs ${runs.length}: M ${matched}, ¬M ${unmatched}, unknown ${unknown - 2}, expansion failed 2; failures ${outcome.failures}; exit ${outcome.exitCode}`);
    expect(outcome.failures).toBeGreaterThanOrEqual(2 + (unknown - 2));
    expect(outcome.exitCode).toBe(EXIT_CODES.incomplete);
    expect(outcome.summary).toMatch(/failed item\(s\) \(more than --max-failures 0\)/);
    const report = await readFile(outcome.reportPath, 'utf8');
    expect(report).toContain('**Incomplete: some numbers below are not whole.**');
    expect(report).toContain('| | unknown |');
    expect(report).not.toContain('sk-test-not-a-real-key');

    // The same run with a failure budget exits 0 from the cache, and still marks the report incomplete.
    const tolerant = await runCli([...args, '--max-failures', '1000'], { env, log: () => {} });
    expect(tolerant.exitCode).toBe(EXIT_CODES.ok);
    expect(await readFile(tolerant.reportPath, 'utf8')).toContain('**Incomplete');
  }, 240_000);
});
