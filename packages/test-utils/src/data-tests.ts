// Vitest helpers for tests that read the data root. Without data such a suite is skipped (and counted by
// tooling/summarize-tests.mjs through the tag in its title); under CI=true missing data is a failing test instead.
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { DATA_ROOT_VARIABLE, dataset, findDataRoot, isCi, missingDatasetMessage, type DatasetName } from './data-root.js';

/** Marks a suite that runs on the data root; tooling/summarize-tests.mjs counts the tests under it that ran. */
export const DATA_TAG_PREFIX = '[data: ';
/** Marks a suite skipped because its data is missing; tooling/summarize-tests.mjs counts the tests under it. */
export const NO_DATA_TAG_PREFIX = '[no data: ';

/** The suite title tag for `names`, e.g. "[data: scifact, fever-lite]" (or "[no data: …]" when `missing`). */
export function dataTag(names: readonly DatasetName[], missing = false): string {
  return `${missing ? NO_DATA_TAG_PREFIX : DATA_TAG_PREFIX}${names.join(', ')}]`;
}

/**
 * A `describe` block whose tests read datasets from the data root. `body` gets the folder of the first dataset and the
 * data root. With every dataset present the suite runs; without, it is collected and skipped (data read while
 * collecting, e.g. for `it.each`, fails that collection: counted as one skipped stand-in); under CI=true a missing
 * dataset is one failing test naming it. `body` may be async (vitest awaits an async suite factory).
 */
export function describeWithData(names: DatasetName | readonly [DatasetName, ...DatasetName[]], title: string, body: (directory: string, root: string) => void | Promise<void>): void {
  const list: readonly DatasetName[] = typeof names === 'string' ? [names] : names;
  const first = list[0] as DatasetName;
  const missing = list.filter((name) => dataset(name) === undefined);
  if (missing.length === 0) {
    const root = findDataRoot() as string;
    describe(`${title} ${dataTag(list)}`, async () => {
      await body(join(root, first), root);
    });
    return;
  }
  if (isCi()) {
    describe(`${title} ${dataTag(list)}`, () => {
      it(`has its data (${DATA_ROOT_VARIABLE})`, () => {
        throw new Error(`CI=true and data is missing: ${missing.map((name) => missingDatasetMessage(name)).join(' | ')}`);
      });
    });
    return;
  }
  const placeholder = `<${DATA_ROOT_VARIABLE} unset>`;
  // Skipped on purpose: its dataset is missing and CI is not set (the title says which; summarize-tests counts it).
  describe.skip(`${title} ${dataTag(list, true)}`, async () => {
    // Collected without data: a body that reads data while collecting (e.g. for `it.each`) throws here; its tests
    // registered so far are counted, and one skipped stand-in marks the rest.
    try {
      await body(join(placeholder, first), placeholder);
    } catch {
      it('(the rest of this suite is built from its data)', () => undefined);
    }
  });
}
