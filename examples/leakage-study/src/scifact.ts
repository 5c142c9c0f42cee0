// The paper's setting on SciFact: the 655 claims with gold evidence, the 45,952 abstract sentences as the knowledge
// store, the rationale sentences as gold. Offline it compares BM25 with BM25+RM3; with OPENAI_BASE_URL and/or
// OPENAI_API_KEY it adds Query2doc and HyDE (chat model FACTKIT_MODEL, default gpt-4o-mini; 8 generations per claim)
// and NLI-matches every generation against the gold sentences.
//
// Run: pnpm --filter leakage-study scifact [limit]
import { loadSciFact } from './datasets.js';
import { runStudy } from './run.js';
import { dataFolder, limitFromArgs, runScript, studyDefaults } from './setup.js';

await runScript(async (io) => {
  const limit = limitFromArgs();
  const dataset = await loadSciFact({ directory: dataFolder('scifact'), split: 'all', unit: 'sentence', limit });
  return runStudy({ ...studyDefaults('scifact', 'pnpm --filter leakage-study scifact'), dataset }, io);
});
