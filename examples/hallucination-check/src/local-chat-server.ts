import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal OpenAI-compatible chat server on 127.0.0.1 for the example's scripted runs (the test-utils server imports
 * vitest, which a plain script cannot load). `reply(userPrompt, callIndex)` gives the assistant text.
 */
export async function startLocalChatServer(reply: (prompt: string, callIndex: number) => string): Promise<{ url: string; close: () => Promise<void> }> {
  let calls = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const parsed = JSON.parse(body) as { model?: string; n?: number; messages?: { role: string; content: string }[] };
      const prompt = (parsed.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '';
      const text = reply(prompt, calls++);
      const choices = Array.from({ length: parsed.n ?? 1 }, (_, index) => ({ index, message: { role: 'assistant', content: text }, finish_reason: 'stop' }));
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: `local-${calls}`, object: 'chat.completion', created: 0, model: parsed.model ?? 'scripted-model', choices, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
