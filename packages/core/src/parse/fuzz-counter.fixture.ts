import { afterAll } from 'vitest';

/** Counts for the parser suites' summary line ("[parser-fuzz] name: N tried, T throws, W wrong ..."), printed after the file's tests. */
export interface FuzzCounter {
  readonly counts: { tried: number; throws: number; wrong: number };
  /** Calls `parse`, counting the call and any throw (a throw gives undefined, and the calling assertion then fails). */
  run<A, R>(parse: (input: A) => R, input: A): R | undefined;
}

export function createFuzzCounter(name: string, describeExtra: () => string = () => ''): FuzzCounter {
  const counts = { tried: 0, throws: 0, wrong: 0 };
  afterAll(() => console.log(`[parser-fuzz] ${name}: ${counts.tried} inputs tried, ${counts.throws} throws, ${counts.wrong} wrong answers${describeExtra()}`));
  return {
    counts,
    run(parse, input) {
      counts.tried += 1;
      try {
        return parse(input);
      } catch {
        counts.throws += 1;
        return undefined;
      }
    },
  };
}
