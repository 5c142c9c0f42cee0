// Per-call overhead of the factkit provider against its peers, all talking to the same local scripted server:
// raw fetch + JSON.parse, the bare openai SDK, and createOpenAICompatible().languageModel / .embedder.
// Reports the median over repeats of the mean latency per call, and ratios to raw fetch.
// Run: pnpm --filter @factkit/openai bench (a vitest file, because @factkit/test-utils loads vitest).
import OpenAI from 'openai';
import { it } from 'vitest';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { createOpenAICompatible } from '../src/index.js';

const REPEATS = 7;
const CALLS = 150;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Warms every peer up, then runs the peers round-robin in each repeat so drift and noise hit them alike. */
async function measureAll(peers: readonly (readonly [string, () => Promise<unknown>])[]): Promise<Map<string, number>> {
  for (const [, run] of peers) for (let index = 0; index < 30; index += 1) await run();
  const means = new Map<string, number[]>(peers.map(([name]) => [name, []]));
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    for (const [name, run] of peers) {
      const started = performance.now();
      for (let index = 0; index < CALLS; index += 1) await run();
      means.get(name)?.push((performance.now() - started) / CALLS);
    }
  }
  return new Map([...means].map(([name, values]) => [name, median(values)]));
}

it('call overhead: raw fetch vs openai SDK vs factkit provider', async () => {
  const server = await startScriptedOpenAIServer({ defaultDimensions: 256 });
  try {
    const body = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Say hello.' }] });
    const embedBody = JSON.stringify({ model: 'bench', input: ['a', 'b', 'c', 'd'], encoding_format: 'float' });
    const headers = { 'content-type': 'application/json', authorization: 'Bearer bench-key' };
    const client = new OpenAI({ apiKey: 'bench-key', baseURL: server.url, maxRetries: 0, logLevel: 'off' });
    const openai = createOpenAICompatible({ baseURL: server.url, apiKey: 'bench-key' });
    const model = openai.languageModel('bench');
    const embedder = openai.embedder('bench', { dimensions: 256 });

    const peers: [string, () => Promise<unknown>][] = [
      ['chat: raw fetch', async () => (await fetch(`${server.url}/chat/completions`, { method: 'POST', headers, body })).json()],
      ['chat: openai SDK', () => client.chat.completions.create({ model: 'bench', messages: [{ role: 'user', content: 'Say hello.' }] })],
      ['chat: factkit model', () => model.generate({ prompt: 'Say hello.' })],
      ['embed: raw fetch', async () => (await fetch(`${server.url}/embeddings`, { method: 'POST', headers, body: embedBody })).json()],
      ['embed: openai SDK', () => client.embeddings.create({ model: 'bench', input: ['a', 'b', 'c', 'd'], encoding_format: 'float' })],
      ['embed: factkit embedder', () => embedder.embed({ texts: ['a', 'b', 'c', 'd'], kind: 'passage' })],
    ];
    const results = await measureAll(peers);
    console.log(`median of ${REPEATS} repeats x ${CALLS} sequential calls, local scripted server, node ${process.version}`);
    for (const [name, milliseconds] of results) {
      const baseline = results.get(name.startsWith('chat') ? 'chat: raw fetch' : 'embed: raw fetch') as number;
      console.log(`${name.padEnd(26)} ${milliseconds.toFixed(3)} ms/call   x${(milliseconds / baseline).toFixed(2)} vs raw fetch`);
    }
  } finally {
    await server.close();
  }
});
