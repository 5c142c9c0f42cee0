// The study on AVeriTeC dev: gold evidence is the human-written QA evidence; each claim is searched in its own
// knowledge store (one <claim_id>.json of {url, url2text} lines per claim, the official layout — not in the data
// root) and the top-k sentences are scored with Hungarian METEOR and BERTScore (offline GloVe token vectors).
// With OPENAI_BASE_URL and/or OPENAI_API_KEY it adds Query2doc and HyDE (HyDE as matching only: the stores are per claim).
//
// Run: pnpm --filter leakage-study averitec <knowledge-store-dir> [limit]
import { InvalidArgumentError } from '@factkit/core';
import { loadAveritec } from './averitec-data.js';
import { runStudy } from './run.js';
import { dataFolder, limitFromArgs, runScript, studyDefaults } from './setup.js';

await runScript(async (io) => {
  const [knowledgeStore, ...rest] = process.argv.slice(2).filter((arg) => arg !== '--');
  if (knowledgeStore === undefined) throw new InvalidArgumentError({ where: 'leakage-study', argument: 'knowledge-store-dir', message: 'is needed: the folder of per-claim <claim_id>.json files' });
  const dataset = await loadAveritec({ directory: dataFolder('averitec'), limit: limitFromArgs(rest) });
  return runStudy({ ...studyDefaults('averitec', 'pnpm --filter leakage-study averitec'), dataset, knowledgeStore, bertscore: 'glove' }, io);
});
