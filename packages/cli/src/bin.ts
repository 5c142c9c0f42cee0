#!/usr/bin/env node
import { runCli } from './run-cli.js';

// Progress is drawn only on a terminal; piped or redirected stderr stays quiet.
const tty = process.stderr.isTTY === true;
let progressShown = false;
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts++;
  if (interrupts > 1) process.exit(130);
  process.stderr.write('\nfactkit: stopping (Ctrl-C again to quit at once)…\n');
  controller.abort(new DOMException('interrupted', 'AbortError'));
});
const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => {
    if (progressShown) process.stderr.write('\r\x1b[K');
    process.stderr.write(text);
  },
  progress: (status) => {
    if (!tty) return;
    if (status === undefined) {
      if (progressShown) process.stderr.write('\r\x1b[K');
      progressShown = false;
      return;
    }
    progressShown = true;
    process.stderr.write(`\r\x1b[K${status.slice(0, Math.max(20, (process.stderr.columns ?? 80) - 1))}`);
  },
  abortSignal: controller.signal,
  env: process.env,
});
process.exitCode = controller.signal.aborted ? 130 : exitCode;
