#!/usr/bin/env node
// Exercises `changeset version` on a throwaway copy of the workspace (never the real tree) and checks that every
// package named in a pending .changeset/*.md got the bumped version the changesets ask for and a CHANGELOG.md entry
// (## <new version>, with each changeset's summary), that every changeset was consumed, and that no changeset names
// an unknown or private package. In changesets' pre mode (.changeset/pre.json, `pnpm release:rc`), changesets already
// versioned in pre mode stay in .changeset/ and are listed in pre.json: they are not pending, and the expected
// version is `<bump of the initial version by every changeset of the pre release>-<tag>.<n>`.
//   node tooling/check-changesets.mjs
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyVersioningState, runChangeset, workspacePackageDirs } from './lib/changeset-copy.mjs';
import { elapsed, root } from './lib/workspace.mjs';

const started = process.hrtime.bigint();
const problems = [];
const BUMPS = ['patch', 'minor', 'major'];

/** Pending changesets: [{ file, releases: Map<name, bump>, summary }] (changesets' front-matter format). */
function readChangesets(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
      if (!match) {
        problems.push(`.changeset/${file}: no front matter (--- "@factkit/x": patch ---)`);
        return { file, releases: new Map(), summary: '' };
      }
      const releases = new Map();
      for (const line of match[1].split(/\r?\n/).filter((l) => l.trim() !== '')) {
        const release = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line);
        if (release) releases.set(release[1], release[2]);
        else problems.push(`.changeset/${file}: cannot read front-matter line ${JSON.stringify(line)}`);
      }
      return { file, releases, summary: match[2].trim() };
    });
}

function bump(version, type) {
  const [major, minor, patch] = version.split(/[.-]/).map(Number);
  if (type === 'major') return `${major + 1}.0.0`;
  if (type === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

const packageDirs = workspacePackageDirs();
const manifests = new Map(
  packageDirs.map((d) => {
    const m = JSON.parse(readFileSync(join(root, d, 'package.json'), 'utf8'));
    return [m.name, { dir: d, manifest: m }];
  }),
);

// Pre mode: { mode: 'pre' | 'exit', tag, initialVersions, changesets: ids already versioned in pre mode }.
const prePath = join(root, '.changeset', 'pre.json');
const pre = existsSync(prePath) ? JSON.parse(readFileSync(prePath, 'utf8')) : undefined;
const allChangesets = readChangesets(join(root, '.changeset'));
const versionedInPre = new Set(pre?.changesets ?? []);
const changesets = allChangesets.filter((cs) => !versionedInPre.has(cs.file.replace(/\.md$/, '')));
const wanted = new Map(); // name -> highest bump
const higher = (a, b) => (BUMPS.indexOf(a) >= BUMPS.indexOf(b ?? 'none') ? a : b);

/** The version `changeset version` must give `name` (at `version` now) whose pending changesets ask for `type`. */
function expectedVersion(name, version, type) {
  if (!pre) return bump(version, type);
  // A pre release bumps the version the package had on entering pre mode by the highest bump of all its changesets.
  const all = allChangesets.filter((cs) => cs.releases.has(name)).reduce((acc, cs) => higher(cs.releases.get(name), acc), undefined);
  const base = bump(pre.initialVersions?.[name] ?? version, all ?? type);
  if (pre.mode === 'exit') return base;
  const current = new RegExp(`^${base.replace(/\./g, '\\.')}-${pre.tag}\\.(\\d+)$`).exec(version);
  return `${base}-${pre.tag}.${current ? Number(current[1]) + 1 : 0}`;
}
for (const cs of changesets) {
  for (const [name, type] of cs.releases) {
    const pkg = manifests.get(name);
    if (!pkg) problems.push(`.changeset/${cs.file}: names ${name}, which is not a workspace package`);
    else if (pkg.manifest.private) problems.push(`.changeset/${cs.file}: names ${name}, which is private (never published)`);
    else if (BUMPS.indexOf(type) > BUMPS.indexOf(wanted.get(name) ?? 'none')) wanted.set(name, type);
  }
  if (cs.releases.size > 0 && cs.summary === '') problems.push(`.changeset/${cs.file}: empty summary (it becomes the CHANGELOG entry)`);
}

const copy = copyVersioningState();
try {
  let output = '';
  try {
    output = runChangeset(copy, ['version']);
  } catch (error) {
    problems.push(`${error.message} (in a throwaway copy)`);
  }
  if (output !== '' || problems.length === 0) {
    const copiedPre = existsSync(join(copy, '.changeset', 'pre.json')) ? JSON.parse(readFileSync(join(copy, '.changeset', 'pre.json'), 'utf8')) : undefined;
    const consumedInPre = new Set(copiedPre?.mode === 'pre' ? copiedPre.changesets : []);
    const left = readdirSync(join(copy, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md' && !consumedInPre.has(f.replace(/\.md$/, '')));
    if (left.length > 0 && wanted.size > 0) problems.push(`changeset version left ${left.length} changeset(s) unconsumed: ${left.join(', ')}`);
    for (const [name, type] of wanted) {
      const { dir, manifest } = manifests.get(name);
      const after = JSON.parse(readFileSync(join(copy, dir, 'package.json'), 'utf8'));
      const expected = expectedVersion(name, manifest.version, type);
      if (after.version !== expected) problems.push(`${name}: version ${manifest.version} -> ${after.version} after changeset version, expected ${expected} (${type}${pre ? `, pre mode ${pre.mode} ${pre.tag}` : ''})`);
      const changelogPath = join(copy, dir, 'CHANGELOG.md');
      if (!existsSync(changelogPath)) {
        problems.push(`${name}: changeset version wrote no ${dir}/CHANGELOG.md`);
        continue;
      }
      const changelog = readFileSync(changelogPath, 'utf8');
      const section = new RegExp(`^## ${after.version.replace(/\./g, '\\.')}\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(changelog);
      if (!section) {
        problems.push(`${name}: ${dir}/CHANGELOG.md has no "## ${after.version}" section`);
        continue;
      }
      for (const cs of changesets.filter((c) => c.releases.has(name))) {
        const firstLine = cs.summary.split('\n')[0].trim();
        if (!section[1].includes(firstLine)) problems.push(`${name}: CHANGELOG ${after.version} lacks the entry of .changeset/${cs.file}`);
      }
    }
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`Changeset problems:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `changesets ok: ${changesets.length} pending changeset(s)${pre ? ` (pre mode ${pre.mode} '${pre.tag}': ${versionedInPre.size} already versioned)` : ''}; changeset version on a throwaway copy bumps ${[...wanted].map(([n, t]) => `${n} (${t})`).join(', ') || 'nothing'} and writes their CHANGELOG entries (${elapsed(started)} s)`,
);
