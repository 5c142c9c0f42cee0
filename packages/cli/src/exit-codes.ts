/**
 * Exit codes of `factkit` (documented in docs/cli.md): 0 done; 1 unexpected failure; 2 bad input (usage, a missing or
 * malformed file, a bad option); 3 partial failure (some items failed, e.g. a model call, and are left out of the
 * results: the numbers are incomplete); 130 interrupted (Ctrl-C; finished model calls stay in the call cache).
 */
export const EXIT_CODES = { ok: 0, failure: 1, badInput: 2, partialFailure: 3, interrupted: 130 } as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
