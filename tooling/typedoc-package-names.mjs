// TypeDoc plugin (tooling/api-docs.mjs): names each entry-point module after its package ("@factkit/core") instead
// of its path ("core/src"; "core/src/node" becomes "@factkit/core/node"), reading packages/<dir>/package.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Converter, ReflectionKind } from 'typedoc';
import { root } from './lib/workspace.mjs';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (_context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const match = /^([\w.-]+)\/src(?:\/(index|node))?$/.exec(reflection.name);
    if (!match) return;
    try {
      const name = JSON.parse(readFileSync(join(root, 'packages', match[1], 'package.json'), 'utf8')).name;
      reflection.name = match[2] === 'node' ? `${name}/node` : name;
    } catch {
      // not a package directory: keep TypeDoc's name
    }
  });
}
