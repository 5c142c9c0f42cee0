// What a published package ships, and whether any of it is data the project did not make (issue 18: the repository
// and the tarballs hold only what the project wrote or generated). Used by tooling/check-packages.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** File names that are data (not code, types, docs or the manifest) when shipped: compare them to the allow-list. */
export const DATA_FILE = /\.(jsonl|ndjson|json|tsv|csv|txt|gz|tgz|zip|tar|bz2|xz|zst|bin|npy|npz|parquet|arrow|onnx|safetensors|pb|h5|pkl|sqlite|db|vec)$/i;
/** npm always packs these at the package root; package.json is the manifest, not data. */
const ALWAYS = /^(package\.json|readme(\.[^/]*)?|licen[cs]e(\.[^/]*)?|changelog(\.[^/]*)?)$/i;
const NEVER = new Set(['node_modules', '.git', '.DS_Store', '.npmrc', 'package-lock.json', 'pnpm-lock.yaml']);
const GLOB = /[*?[\]{}!]/;

function walk(dir, base, out) {
  for (const name of readdirSync(dir).sort()) {
    if (NEVER.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, base, out);
    else out.push(relative(base, path));
  }
  return out;
}

/**
 * The paths npm would pack for a package directory from its `files` (plain paths: a file, or a folder taken whole),
 * plus the root files npm always adds. Entries with glob characters are returned in `unsupported` (the check asks for
 * plain paths so the list is exact without running npm). A folder that does not exist yet (dist before a build) adds
 * nothing.
 */
export function packedPaths(packageDir, files) {
  const paths = new Set(readdirSync(packageDir).filter((name) => ALWAYS.test(name) && statSync(join(packageDir, name)).isFile()));
  const unsupported = [];
  for (const entry of Array.isArray(files) ? files : []) {
    if (typeof entry !== 'string' || GLOB.test(entry)) {
      unsupported.push(String(entry));
      continue;
    }
    const path = join(packageDir, entry);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) for (const file of walk(path, packageDir, [])) paths.add(file);
    else paths.add(relative(packageDir, path));
  }
  return { paths: [...paths].sort(), unsupported };
}

/** Data files under `src/` (the build inlines what src imports, so they ship inside dist even without a path of their own). */
export function sourceDataPaths(packageDir) {
  const src = join(packageDir, 'src');
  return existsSync(src) ? walk(src, packageDir, []).filter((path) => DATA_FILE.test(path)) : [];
}

/** The paths inside a packed tarball (`npm pack` / `pnpm pack` output), without npm's `package/` prefix. */
export function tarballPaths(tarball) {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^[^/]+\//, ''))
    .sort();
}

/** The package name in a tarball's package.json. */
export function tarballName(tarball) {
  const entry = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .find((line) => /^[^/]+\/package\.json$/.test(line));
  if (!entry) throw new Error(`${tarball}: no package.json in the tarball`);
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, entry], { encoding: 'utf8' })).name;
}

/**
 * One message per shipped data file that is not on the package's allow-list of project-made data
 * (tooling/release.config.json "projectData": { "<package name>": { "<path>": "what made it" } }).
 */
export function unlistedDataFiles(name, paths, allow = {}) {
  return paths
    .filter((path) => DATA_FILE.test(path) && path !== 'package.json' && !Object.hasOwn(allow, path))
    .map(
      (path) =>
        `ships data file "${path}" that is not on the allow-list of project-made data: only what the project wrote or generated may be published (third-party data stays out of the repository and the tarball); if the project made it, add "${path}" with what made it to projectData["${name}"] in tooling/release.config.json`,
    );
}
