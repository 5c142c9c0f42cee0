#!/usr/bin/env node
// The 1.0 release candidate: brings every published package to one `1.0.0-rc.<n>` with a CHANGELOG.md, through
// changesets' pre mode (tag `rc`). The first run enters pre mode (`changeset pre enter rc`, which writes
// .changeset/pre.json) and adds .changeset/release-1-0-0-rc.md naming every published package as `major`, so the
// 0.0.0 and 0.1.0 packages all become 1.0.0-rc.0; the pending changesets become each CHANGELOG's entries. A later
// run (more changesets, still in pre mode) gives the packages they name the next rc.<n>.
//   node tooling/release-rc.mjs --dry-run   on a throwaway copy: prints the versions it would write, changes nothing
//   node tooling/release-rc.mjs             in the working tree (a clean one): pre enter + version; then commit
// Leaving pre mode for 1.0.0: `pnpm changeset pre exit && pnpm changeset version` (docs/releasing.md).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyVersioningState, runChangeset } from './lib/changeset-copy.mjs';
import { elapsed, publishedPackages, root } from './lib/workspace.mjs';

const started = process.hrtime.bigint();
const dryRun = process.argv.includes('--dry-run');
const TAG = 'rc';
const TARGET = '1.0.0';
const RC_CHANGESET = 'release-1-0-0-rc';

function fail(message) {
  console.error(`release:rc: ${message}`);
  process.exit(1);
}

if (!dryRun) {
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim();
  if (dirty) fail(`the working tree has uncommitted changes; commit or stash them first (or run with --dry-run):\n${dirty}`);
}

const published = publishedPackages();
const dir = dryRun ? copyVersioningState() : root;
try {
  const prePath = join(dir, '.changeset', 'pre.json');
  const pre = existsSync(prePath) ? JSON.parse(readFileSync(prePath, 'utf8')) : undefined;
  if (pre && (pre.mode !== 'pre' || pre.tag !== TAG)) fail(`.changeset/pre.json is in mode '${pre.mode}' with tag '${pre.tag}', not pre mode '${TAG}'`);
  if (!pre) {
    const before = published.filter((p) => !/^0\./.test(p.manifest.version));
    if (before.length > 0) fail(`expected every published package below 1.0 before the first candidate: ${before.map((p) => `${p.manifest.name}@${p.manifest.version}`).join(', ')}`);
    runChangeset(dir, ['pre', 'enter', TAG]);
    writeFileSync(
      join(dir, '.changeset', `${RC_CHANGESET}.md`),
      `---\n${published.map((p) => `"${p.manifest.name}": major`).join('\n')}\n---\n\n` +
        'First release candidate of 1.0: the public API recorded in `api/*.api.md` is the one 1.0 will ship. ' +
        'ESM only; Node ≥ 20.19 can `require()` it.\n',
    );
  }
  runChangeset(dir, ['version']);

  const problems = [];
  const versions = published.map((p) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'packages', p.dir, 'package.json'), 'utf8'));
    const changelogPath = join(dir, 'packages', p.dir, 'CHANGELOG.md');
    const changelog = existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : '';
    if (!new RegExp(`^${TARGET.replace(/\./g, '\\.')}-${TAG}\\.\\d+$`).test(manifest.version)) problems.push(`${manifest.name}: version ${manifest.version}, expected ${TARGET}-${TAG}.<n>`);
    if (!pre && manifest.version !== `${TARGET}-${TAG}.0`) problems.push(`${manifest.name}: first candidate is ${manifest.version}, expected ${TARGET}-${TAG}.0`);
    if (!changelog.includes(`\n## ${manifest.version}\n`)) problems.push(`${manifest.name}: packages/${p.dir}/CHANGELOG.md has no "## ${manifest.version}" section`);
    return `${manifest.name}@${manifest.version}`;
  });
  if (problems.length > 0) fail(`changeset version did not produce the release candidate:\n- ${problems.join('\n- ')}`);
  console.log(`release:rc ${dryRun ? '(dry run, nothing written) ' : ''}ok in ${elapsed(started)} s: ${versions.join(', ')}; each with its CHANGELOG.md section.`);
  if (!dryRun) {
    console.log('Next: review the diff, `git add -A && git commit -m "Version packages: 1.0.0-rc"`, then publish as docs/releasing.md says');
    console.log('(pnpm build && pnpm check:release && pnpm -r publish --access public --tag rc).');
  }
} finally {
  if (dryRun) rmSync(dir, { recursive: true, force: true });
}
