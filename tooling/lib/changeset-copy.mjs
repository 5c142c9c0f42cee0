// A throwaway copy of the workspace's versioning state (root package.json, pnpm-workspace.yaml, .changeset/, every
// workspace package's package.json and CHANGELOG.md) in which `changeset` commands run without touching the real
// tree. Shared by check-changesets.mjs and release-rc.mjs (--dry-run).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './workspace.mjs';

/** Workspace package directories (relative to the root) from pnpm-workspace.yaml's "- dir/*" globs (this repo's layout). */
export function workspacePackageDirs(base = root) {
  const globs = [...readFileSync(join(base, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s+-\s+['"]?([\w.-]+)\/\*['"]?\s*$/gm)].map((m) => m[1]);
  return globs.flatMap((g) => (existsSync(join(base, g)) ? readdirSync(join(base, g)).map((d) => join(g, d)) : [])).filter((d) => existsSync(join(base, d, 'package.json')));
}

/** Copies the versioning state of `from` into a new temporary folder; returns its path (remove it with rmSync). */
export function copyVersioningState(from = root) {
  const copy = mkdtempSync(join(tmpdir(), 'factkit-changesets-'));
  for (const f of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(from, f), join(copy, f));
  cpSync(join(from, '.changeset'), join(copy, '.changeset'), { recursive: true });
  for (const d of workspacePackageDirs(from)) {
    mkdirSync(join(copy, d), { recursive: true });
    for (const f of ['package.json', 'CHANGELOG.md']) if (existsSync(join(from, d, f))) cpSync(join(from, d, f), join(copy, d, f));
  }
  // The changelog generator (@changesets/cli/changelog) is resolved from the copy: lend it the real node_modules.
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** Runs `changeset <args>` in `cwd` (CI=true: no prompts); returns its stdout, throws with its last lines on failure. */
export function runChangeset(cwd, args) {
  try {
    return execFileSync(join(root, 'node_modules', '.bin', 'changeset'), args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
  } catch (error) {
    throw new Error(`changeset ${args.join(' ')} failed: ${(error.stderr || error.stdout || error.message).toString().trim().split('\n').slice(-5).join(' | ')}`);
  }
}
