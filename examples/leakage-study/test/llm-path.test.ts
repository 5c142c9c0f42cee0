import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer, type ScriptedReply, type ScriptedRequest } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { findDataRoot } from '@factkit/test-utils/data';
import { describeWithData } from '@factkit/test-utils';
// The data root (read in the suites below, which are skipped without it).
const DATA_ROOT = findDataRoot() ?? '<no data root>';
import { runCli } from '../src/cli.js';
import { loadSciFact, type StudyClaim } from '../src/datasets.js';

const exampleDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const QUERY2DOC_PREFIX = 'Write a passage that answers the following query:\n';
const MULTI_QUERY = /^You are an AI language model assistant\. Your task is to generate 3 different versions[\s\S]*Original question: ([\s\S]*)$/;
const HYDE_SCIFACT = /^Please write a scientific paper passage to support\/refute the claim\.\nClaim: ([\s\S]*)\nPassage:$/;
const CLAIMS = 6;
const REPEATS = 2;

interface ChatBody {
  messages?: { role: string; content: string }[];
  seed?: number;
}

function userPrompt(request: ScriptedRequest): string {
  const body = request.body as ChatBody;
  return body.messages?.filter((message) => message.role === 'user').at(-1)?.content ?? '';
}

/**
 * Generations: for the first half of the claims the "LLM" copies the gold evidence verbatim (leakage, must be
 * matched); for the second half it only restates the claim (removed by the ROUGE-2 >= 0.95 rule, must stay unmatched).
 */
function scriptFor(claims: readonly StudyClaim[]) {
  const byText = new Map(claims.map((claim, index) => [claim.text, { claim, leaks: index < claims.length / 2 }]));
  return (request: ScriptedRequest): ScriptedReply => {
    if (request.path !== '/v1/chat/completions') return { delayMs: 0 }; // embeddings: the server's deterministic vectors
    const prompt = userPrompt(request);
    if (prompt.startsWith('Your task is to predict the verdict of a claim')) return { content: 'supported' };
    const multiQuery = MULTI_QUERY.exec(prompt);
    const claimText = multiQuery?.[1] ?? (prompt.startsWith(QUERY2DOC_PREFIX) ? prompt.slice(QUERY2DOC_PREFIX.length) : (HYDE_SCIFACT.exec(prompt)?.[1] ?? ''));
    const entry = byText.get(claimText);
    if (!entry) return { status: 400, body: { error: { message: `unexpected prompt: ${prompt.slice(0, 80)}` } } };
    if (multiQuery) {
      // Multi-query: "rewrites" that are the gold evidence sentences (leak) or the claim itself (restatement).
      return { content: entry.leaks ? entry.claim.evidence.map((sentence, index) => `${index + 1}. ${sentence}`).join('\n') : `1. ${entry.claim.text}` };
    }
    return { content: entry.leaks ? entry.claim.evidence.join(' ') : entry.claim.text };
  };
}

const requestKey = (request: ScriptedRequest) => `${(request.body as ChatBody).seed}|${userPrompt(request)}`;
const chatRequests = (server: ScriptedOpenAIServer) => server.requests.filter((request) => request.path === '/v1/chat/completions');

let server: ScriptedOpenAIServer | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await server?.close();
  server = undefined;
  child = undefined;
});

async function setup() {
  const dataset = await loadSciFact({ directory: join(DATA_ROOT, 'scifact'), split: 'train', limit: CLAIMS });
  const directory = await mkdtemp(join(tmpdir(), 'leakage-study-'));
  // Abstract level keeps this plumbing test's hand-checked BM25 row; sentence level is checked in offline.test.ts.
  const args = ['--dataset', 'scifact', '--unit', 'abstract', '--split', 'train', '--limit', String(CLAIMS), '--methods', 'query2doc', '--repeats', String(REPEATS)];
  args.push('--model', 'scripted-model', '--out', join(directory, 'out'), '--cache', join(directory, 'cache'), '--concurrency', '1');
  return { dataset, directory, args };
}

describeWithData('scifact', 'leakage-study LLM path against the scripted OpenAI server', () => {
  it('matches generations that copy gold evidence and leaves claim restatements unmatched', async () => {
    const { dataset, args } = await setup();
    server = await startScriptedOpenAIServer({ script: scriptFor(dataset.claims) });
    const logs: string[] = [];
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-not-a-real-key' };
    // HyDE too, embedding with the server's deterministic 8-d vectors (a plumbing check; USE-lite is the real default).
    const withHyde = args.map((arg) => (arg === 'query2doc' ? 'query2doc,hyde,multi-query' : arg)).concat(['--embedder', 'scripted-embedding', '--embedding-dimensions', '8', '--verdicts']);
    const { reportPath, plotPath, resultsPath } = await runCli(withHyde, { env, log: (text) => logs.push(text) });
    const generations = chatRequests(server).filter((request) => !userPrompt(request).startsWith('Your task is to predict'));
    expect(generations).toHaveLength(3 * CLAIMS * REPEATS);
    expect(new Set(generations.map((request) => (request.body as ChatBody).seed))).toEqual(new Set([0, 1]));

    const { provenance, methods: results } = JSON.parse(await readFile(resultsPath, 'utf8')) as {
      provenance: { packages: Record<string, string>; datasetFiles: Record<string, string>; model: { id: string }; sampling: { repeats: number } };
      methods: {
        method: string;
        runs: {
          claimId: string;
          sample: number;
          generations: string[];
          matched: boolean | null;
          nliLabels: (string | null)[][];
          provenance: { prompts?: string[]; sampling?: { seed?: number } } | null;
          removedSentences: { text: string; rouge2: number }[];
          entailingPairs: unknown[];
        }[];
        matchedProportion: { mean: number };
      }[];
    };
    // Provenance a reader needs to audit any row: package versions, dataset file hashes, model, prompts and seeds.
    expect(provenance.packages['@factkit/nli-match']).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.values(provenance.datasetFiles).every((hash) => /^[0-9a-f]{64}$/.test(hash))).toBe(true);
    expect(provenance.model.id).toContain('scripted-model');
    const firstRun = results.find((entry) => entry.method === 'Query2doc')?.runs[0];
    expect(firstRun?.provenance?.prompts?.[0]).toMatch(/^Write a passage that answers the following query:/);
    expect(firstRun?.provenance?.sampling?.seed).toBe(0);
    expect(firstRun?.nliLabels.length).toBeGreaterThan(0);
    for (const method of ['Query2doc', 'HyDE', 'Multi-query (RRF)']) {
      const byMethod = results.find((entry) => entry.method === method);
      expect(byMethod?.runs).toHaveLength(CLAIMS * REPEATS);
      dataset.claims.forEach((claim, index) => {
        const runs = byMethod?.runs.filter((run) => run.claimId === claim.id) ?? [];
        expect(runs).toHaveLength(REPEATS);
        for (const run of runs) {
          if (index < CLAIMS / 2) {
            expect(run.matched, `claim ${claim.id} copies its gold evidence`).toBe(true);
            expect(run.entailingPairs.length).toBeGreaterThan(0);
          } else {
            expect(run.matched, `claim ${claim.id} only restates the claim`).toBe(false);
            if (method === 'Multi-query (RRF)') {
              // A rewrite identical to the claim is dropped as a duplicate of the original query: nothing to match.
              expect(run.generations).toEqual([]);
            } else {
              expect(run.removedSentences.map((sentence) => sentence.text)).toEqual([claim.text]);
              expect(run.removedSentences[0]?.rouge2).toBeGreaterThanOrEqual(0.95);
            }
          }
        }
      });
      expect(byMethod?.matchedProportion.mean).toBeCloseTo(0.5, 10);
    }

    const report = await readFile(reportPath, 'utf8');
    expect(report).toContain('| Query2doc | ALL |');
    expect(report).toContain('| | M |');
    expect(report).toContain('| | ¬M |');
    expect(report).toContain('| Query2doc | 50.0 ± 0.0 |');
    expect(report).toContain('| HyDE | 50.0 ± 0.0 |');
    expect(report).toContain('| Multi-query (RRF) | 50.0 ± 0.0 |');
    // Verdicts: the scripted model always answers "supported"; the first 6 train claims are 4 supported, 2 refuted,
    // so F1(supported) = 2·(4/6)·1/(4/6 + 1) = 0.8, F1(refuted) = 0, macro-F1 = 40.0 for every k and repeat.
    expect(dataset.claims.map((claim) => claim.label)).toEqual(['refuted', 'supported', 'supported', 'supported', 'refuted', 'supported']);
    expect(report).toContain('| Method | Data | Recall@5 | NDCG@5 | Recall@10 | NDCG@10 | F1@5 | F1@10 | claim × repeat runs |');
    expect(report).toContain('| BM25 | ALL | 100.0 | 93.8 | 100.0 | 93.8 | 40.0 | 40.0 | |');
    expect(report).toContain('| Dense (openai-compatible:scripted-embedding) | ALL |');
    expect(report).not.toContain('sk-test-not-a-real-key');
    expect(await readFile(plotPath, 'utf8')).toContain('<svg');
    // Progress counts the runs of both repeats together: 6 claims × 2 repeats.
    expect(logs.join('')).toContain('Query2doc repeats: 12/12 claim runs');
  });

  it('resumes after being killed mid-run without repeating an answered call', async () => {
    const { dataset, args } = await setup();
    const script = scriptFor(dataset.claims);
    const killAt = 5; // the 5th chat request kills the first run before it is answered
    let phase: 'first' | 'second' = 'first';
    let firstChats = 0;
    let killed!: () => void;
    const childExited = new Promise<void>((resolveExit) => {
      killed = resolveExit;
    });
    server = await startScriptedOpenAIServer({
      script: (request) => {
        if (request.path !== '/v1/chat/completions' || phase === 'second') return script(request);
        firstChats += 1;
        if (firstChats === killAt) {
          child?.kill('SIGKILL');
          return { ...script(request), delayMs: 60_000 }; // never delivered: the client is dead
        }
        return script(request);
      },
    });
    const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-not-a-real-key' };
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: exampleDirectory, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', () => killed());
    await childExited;
    expect(firstChats, `first run stderr:\n${stderr}`).toBe(killAt);
    const firstRun = chatRequests(server);
    const answered = new Set(firstRun.slice(0, killAt - 1).map(requestKey));
    expect(answered.size).toBe(killAt - 1);

    phase = 'second';
    await runCli(args, { env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-not-a-real-key' }, log: () => {} });
    const secondRun = chatRequests(server).slice(firstRun.length);
    const secondKeys = secondRun.map(requestKey);
    for (const key of secondKeys) expect(answered.has(key), `repeated an answered call: ${key.slice(0, 60)}`).toBe(false);
    expect(new Set(secondKeys).size).toBe(secondKeys.length);
    // Everything not answered in the first run is asked exactly once in the second (including the killed call).
    expect(secondRun).toHaveLength(CLAIMS * REPEATS - (killAt - 1));
  });
});
