// The study on FEVER-lite (validation split). The knowledge store is the pool of the split's gold-evidence sentences,
// not the 5.4M-page Wikipedia of the paper: the report says so, and its numbers are not the paper's.
// Offline: BM25 vs BM25+RM3; with OPENAI_BASE_URL and/or OPENAI_API_KEY also Query2doc and HyDE.
//
// Run: pnpm --filter leakage-study fever [limit]
import { loadFeverLite } from './datasets.js';
import { runStudy } from './run.js';
import { dataFolder, limitFromArgs, runScript, studyDefaults } from './setup.js';

await runScript(async (io) => {
  const limit = limitFromArgs();
  const dataset = await loadFeverLite({ directory: dataFolder('fever-lite'), split: 'validation', limit });
  return runStudy({ ...studyDefaults('fever-lite', 'pnpm --filter leakage-study fever'), dataset }, io);
});
