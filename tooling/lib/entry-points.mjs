// The public entry points of the published packages, read from each package.json `exports` (never a hard-coded
// list): one row per subpath with its built declaration file. Shared by measure-exports.mjs and api-report.mjs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { publishedPackages } from './workspace.mjs';

/** `types` of an `exports` condition object (or nested `import` conditions), if any. */
function typesOf(target) {
  if (typeof target === 'string') return target.endsWith('.d.ts') ? target : undefined;
  if (!target || typeof target !== 'object') return undefined;
  if (typeof target.types === 'string') return target.types;
  for (const key of ['import', 'default', 'node']) {
    const found = typesOf(target[key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Every published entry point: { pkg, dir, subpath, specifier, dts, built }.
 * `specifier` is the import a user writes (`@factkit/core/node`); `dts` the absolute path of its built `.d.ts`;
 * `built` whether that file exists (run `pnpm build` first).
 */
export function entryPoints() {
  return publishedPackages().flatMap((p) =>
    Object.entries(p.manifest.exports ?? { '.': { types: p.manifest.types } })
      .filter(([subpath]) => subpath !== './package.json')
      .map(([subpath, target]) => {
        const types = typesOf(target);
        const dts = types ? join(p.path, types) : undefined;
        return {
          pkg: p.manifest.name,
          dir: p.dir,
          path: p.path,
          subpath,
          specifier: subpath === '.' ? p.manifest.name : `${p.manifest.name}/${subpath.replace(/^\.\//, '')}`,
          dts,
          built: dts !== undefined && existsSync(dts),
        };
      }),
  );
}
