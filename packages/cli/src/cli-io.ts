/** Where a command writes. The bin passes process streams; tests and embedders can capture. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** A one-line progress status (overwritten in place on a terminal); `undefined` ends it. */
  readonly progress: (status: string | undefined) => void;
  /** Aborted on Ctrl-C: long jobs stop, finished model calls stay in the call cache. */
  readonly abortSignal?: AbortSignal;
  /** Environment (OPENAI_BASE_URL, OPENAI_API_KEY, FACTKIT_MODEL, and variables a config file's `"$env:NAME"` names). @default {} */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where the search for factkit.config.json / .factkitrc.json starts and `--config` is resolved from. @default process.cwd() */
  readonly cwd?: string;
}
