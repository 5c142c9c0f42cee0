// Shared by the release checks: discovers packages from packages/*/package.json (never a hard-coded list).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const releaseConfig = JSON.parse(readFileSync(join(root, 'tooling', 'release.config.json'), 'utf8'));

/** Every packages/<dir>/package.json, in directory order: { dir, path, manifest }. */
export function workspacePackages() {
  return readdirSync(join(root, 'packages'))
    .sort()
    .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
    .map((dir) => {
      const path = join(root, 'packages', dir);
      return { dir, path, manifest: JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) };
    });
}

/** The packages that get published: every workspace package not marked `private`. */
export function publishedPackages() {
  return workspacePackages().filter((p) => p.manifest.private !== true);
}

/** Seconds since `start` (a process.hrtime.bigint()), one decimal. */
export function elapsed(start) {
  return (Number(process.hrtime.bigint() - start) / 1e9).toFixed(1);
}
