#!/usr/bin/env node
// The build emits JavaScript per package (tsup) and declarations once for the workspace (`tsc -b tsconfig.build.json`,
// the root `build:types` task). That only stays right while every package is wired into the declaration build the
// same way; this check fails CI when a package is not (a new package, a new workspace dependency, a tsup config that
// emits or deletes declarations again).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const problems = [];
const dirs = readdirSync(join(root, 'packages')).filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')));
const nameToDir = new Map(dirs.map((dir) => [readJson(join(root, 'packages', dir, 'package.json')).name, dir]));

const rootReferences = new Set((readJson(join(root, 'tsconfig.build.json')).references ?? []).map((r) => r.path));
for (const dir of dirs) {
  const where = `packages/${dir}`;
  const manifest = readJson(join(root, where, 'package.json'));
  if (!existsSync(join(root, where, 'tsup.config.ts'))) continue; // not built (e.g. the shared tsconfig package)
  if (!rootReferences.has(`${where}/tsconfig.build.json`)) problems.push(`${where}: missing from the root tsconfig.build.json references`);
  const buildConfigPath = join(root, where, 'tsconfig.build.json');
  if (!existsSync(buildConfigPath)) {
    problems.push(`${where}: no tsconfig.build.json (copy packages/core's and list its workspace dependencies under references)`);
    continue;
  }
  const buildConfig = readJson(buildConfigPath);
  const options = buildConfig.compilerOptions ?? {};
  if (options.composite !== true || options.emitDeclarationOnly !== true || options.outDir !== 'dist') problems.push(`${where}/tsconfig.build.json: needs composite, emitDeclarationOnly and outDir "dist"`);
  const workspaceDeps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies, ...manifest.devDependencies })
    .filter((name) => nameToDir.has(name) && name !== manifest.name && existsSync(join(root, 'packages', nameToDir.get(name), 'tsup.config.ts')))
    .map((name) => `../${nameToDir.get(name)}/tsconfig.build.json`)
    .sort();
  const referenced = (buildConfig.references ?? []).map((r) => r.path).sort();
  if (JSON.stringify(workspaceDeps) !== JSON.stringify(referenced)) problems.push(`${where}/tsconfig.build.json: references ${JSON.stringify(referenced)} should be its workspace dependencies ${JSON.stringify(workspaceDeps)}`);
  const tsup = readFileSync(join(root, where, 'tsup.config.ts'), 'utf8');
  if (/\bdts\s*:/.test(tsup)) problems.push(`${where}/tsup.config.ts: emits declarations (remove \`dts\`; the root build:types task emits them)`);
  if (!tsup.includes("clean: ['!**/*.d.ts']")) problems.push(`${where}/tsup.config.ts: \`clean\` must keep the declarations (clean: ['!**/*.d.ts'])`);
  if (manifest.scripts?.build !== 'tsup --silent') problems.push(`${where}/package.json: "build" should be "tsup --silent" (found ${JSON.stringify(manifest.scripts?.build)})`);
}

if (problems.length > 0) {
  console.error(`build config problems (${problems.length}):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`build config ok: ${rootReferences.size} packages in the declaration build`);
