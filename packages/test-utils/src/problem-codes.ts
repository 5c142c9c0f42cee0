/** How the codes a pin test provoked compare with every code of a package's problem-code union. */
export interface ProblemCodeComparison {
  /** Codes that were emitted but are not members of the union, sorted (each is a bug in the union or the code). */
  readonly outside: string[];
  /** Members of the union that nothing emitted, in the order `codes` lists them. */
  readonly notEmitted: string[];
}

/**
 * Compares every member of a package's problem-code union with the codes a pin test provoked. `codes` lists the
 * members: an array checked against the union, or the keys of an object written
 * `{ ... } satisfies Record<MyProblemCode, true>`, so the compiler rejects an extra or (for the object) a missing member.
 * The test states what it expects, e.g. the codes no input can reach:
 * @example expect(compareProblemCodes(CODES, emitted)).toEqual({ outside: [], notEmitted: ['parse-failed'] })
 */
export function compareProblemCodes(codes: readonly string[] | Readonly<Record<string, true>>, emitted: Iterable<string>): ProblemCodeComparison {
  const members: readonly string[] = Array.isArray(codes) ? codes : Object.keys(codes);
  const union = new Set(members);
  const seen = new Set(emitted);
  return { outside: [...seen].filter((code) => !union.has(code)).sort(), notEmitted: members.filter((code) => !seen.has(code)) };
}
