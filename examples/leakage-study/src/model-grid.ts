// Several chat models on one endpoint (paper Tables 2–4 and 3 across LLMs): Query2doc and HyDE on SciFact for each
// model in FACTKIT_MODELS, one report per model plus grid.md with every model side by side.
//
// Run: OPENAI_BASE_URL=http://localhost:8000/v1 FACTKIT_MODELS=llama-3.1-8b-it,mistral-7b-it pnpm --filter leakage-study model-grid [limit]
import { InvalidArgumentError } from '@factkit/core';
import { loadSciFact } from './datasets.js';
import { runStudy } from './run.js';
import { dataFolder, hasEndpoint, limitFromArgs, runScript, studyDefaults } from './setup.js';

await runScript(async (io) => {
  const modelNames = (process.env['FACTKIT_MODELS'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (modelNames.length === 0) throw new InvalidArgumentError({ where: 'leakage-study', argument: 'FACTKIT_MODELS', message: 'must name the chat models, comma-separated' });
  if (!hasEndpoint()) throw new InvalidArgumentError({ where: 'leakage-study', argument: 'OPENAI_BASE_URL', message: 'or OPENAI_API_KEY must name the endpoint the models run on' });
  const dataset = await loadSciFact({ directory: dataFolder('scifact'), split: 'all', unit: 'sentence', limit: limitFromArgs() });
  return runStudy({ ...studyDefaults('scifact', 'pnpm --filter leakage-study model-grid'), dataset, methods: ['query2doc', 'hyde'], modelNames }, io);
});
