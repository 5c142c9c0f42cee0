import type { CliIo } from './cli-io.js';

/** Formats seconds as `42s`, `3m05s` or `1h02m`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * A progress reporter with rate-based ETA: `label done/total (pct) elapsed, ETA`. The bin only draws it on a TTY
 * (stderr); piped runs stay quiet. `now` is injectable for tests.
 */
export function createProgress(io: CliIo, label: string, now: () => number = Date.now): { update(done: number, total?: number, extra?: string): void; end(): void } {
  const started = now();
  return {
    update(done, total, extra) {
      const elapsed = (now() - started) / 1000;
      let text = `${label} ${done}${total ? `/${total}` : ''}`;
      if (total && total > 0) {
        text += ` (${Math.floor((100 * done) / total)}%)`;
        if (done > 0 && done < total) text += ` ETA ${formatDuration((elapsed / done) * (total - done))}`;
      }
      text += ` elapsed ${formatDuration(elapsed)}`;
      if (extra) text += ` ${extra}`;
      io.progress(text);
    },
    end() {
      io.progress(undefined);
    },
  };
}
