// The full command line: `pnpm --filter leakage-study start -- --help`. Progress goes to stderr; results to the output
// folder. Exit codes: 0 every number whole (or failures within --max-failures); 2 bad input; 3 failures beyond
// --max-failures; 130 interrupted (finished calls are cached: rerun to resume); 1 anything else.
import { runCli } from './cli.js';
import { runScript } from './setup.js';

await runScript((io) => runCli(process.argv.slice(2), io));
