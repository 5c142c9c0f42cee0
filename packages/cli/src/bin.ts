#!/usr/bin/env node
import { runCli } from './run-cli.js';

let progressShown = false;
const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: (status) => {
    if (status === undefined) {
      if (progressShown) process.stderr.write('\n');
      progressShown = false;
      return;
    }
    progressShown = true;
    process.stderr.write(`\r${status}   `);
  },
});
process.exitCode = exitCode;
