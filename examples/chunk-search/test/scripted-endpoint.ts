// Starts the scripted OpenAI-compatible test server on 127.0.0.1 with replies made from each chunk (title = its
// first words, questions from its words), every 50th reply malformed and every 97th a 500, and prints its URL.
// Used to exercise `OPENAI_BASE_URL=<url> pnpm start` end to end without a model:
//   npx tsx test/scripted-endpoint.ts   (Ctrl-C to stop)
// The server module directly: @factkit/test-utils' entry also loads its vitest contract suites.
import { startScriptedOpenAIServer } from '../../../packages/test-utils/src/openai-server.js';

const server = await startScriptedOpenAIServer({
  script: (request) => {
    const body = request.body as { messages?: Array<{ content: string }> };
    const prompt = body.messages?.map((message) => message.content).join('\n') ?? '';
    const chunk = prompt.split('Chunk:\n')[1] ?? '';
    const words = chunk.split(/\s+/u).filter((word) => /^[A-Za-z]{5,}$/u.test(word));
    if (request.callIndex % 97 === 96) return { status: 500 };
    if (request.callIndex % 50 === 49) return { malformed: true };
    const title = chunk.split(/\s+/u).slice(0, 8).join(' ');
    const questions = [0, 1, 2].map((i) => `What is known about ${words[i * 3] ?? 'this'} and ${words[i * 3 + 1] ?? 'that'}?`);
    return { content: JSON.stringify({ title, questions }) };
  },
});
process.stdout.write(`${server.url}\n`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
