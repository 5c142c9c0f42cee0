import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer, type ScriptedRequest } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { findDataRoot } from '@factkit/test-utils/data';
import { describeWithData } from '@factkit/test-utils';
// The data root (read in the suites below, which are skipped without it).
const DATA_ROOT = findDataRoot() ?? '<no data root>';
import { runCli } from '../src/cli.js';
import { loadSciFact } from '../src/datasets.js';

const QUERY2DOC_PREFIX = 'Write a passage that answers the following query:\n';
let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describeWithData('scifact', '--models: several LLMs against one endpoint', () => {
  it('writes one report per model and the multi-LLM grid (Table 3 and the Tables 2/4 layout)', async () => {
    const dataset = await loadSciFact({ directory: join(DATA_ROOT, 'scifact'), split: 'train', limit: 4 });
    const byText = new Map(dataset.claims.map((claim) => [claim.text, claim]));
    // "leaky-model" copies the gold evidence (every claim matched); "clean-model" restates the claim (none matched).
    server = await startScriptedOpenAIServer({
      script: (request: ScriptedRequest) => {
        const body = request.body as { model: string; messages: { role: string; content: string }[] };
        const prompt = body.messages.at(-1)?.content ?? '';
        const claim = byText.get(prompt.slice(QUERY2DOC_PREFIX.length));
        if (!claim) return { status: 400 };
        return { content: body.model === 'leaky-model' ? claim.evidence.join(' ') : claim.text };
      },
    });
    const directory = await mkdtemp(join(tmpdir(), 'leakage-grid-'));
    const args = ['--split', 'train', '--limit', '4', '--methods', 'query2doc', '--repeats', '1', '--nli', 'lexical', '--models', 'leaky-model,clean-model'];
    args.push('--out', join(directory, 'out'), '--cache', join(directory, 'cache'));
    const outcome = await runCli(args, { env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test' }, log: () => {} });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.gridPath).toBe(join(directory, 'out', 'grid.md'));
    const grid = await readFile(outcome.gridPath as string, 'utf8');
    expect(grid).toContain('| Model | Query2doc |');
    expect(grid).toContain('| leaky-model | 100.0 |'); // one repeat: no standard error
    expect(grid).toContain('| clean-model | 0.0 |');
    expect(grid).toContain('## Query2doc by model (Tables 2, 4 and A1–A3)');
    expect(await readFile(join(directory, 'out', 'leaky-model', 'report.md'), 'utf8')).toContain('| Query2doc | ALL |');
    expect(await readFile(join(directory, 'out', 'clean-model', 'report.md'), 'utf8')).toContain('| Query2doc | ALL |');
  }, 120_000);
});
