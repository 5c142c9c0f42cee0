import { InvalidArgumentError } from './factkit-error.js';

/**
 * Shared argument guards. Each throws core's {@link InvalidArgumentError} naming the argument (and the function, when
 * `where` is given) and what was wrong, with the value it got: `createX: argument "topK" must be an integer >= 1 (got 0)`.
 */

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

function fail(argument: string, value: unknown, expected: string, where: string | undefined): never {
  throw new InvalidArgumentError({ ...(where === undefined ? {} : { where }), argument, message: `must be ${expected} (got ${shown(value)})` });
}

/** Throws unless `value` is an integer >= 1. */
export function assertPositiveInteger(argument: string, value: unknown, where?: string): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < 1) fail(argument, value, 'an integer >= 1', where);
}

/** Throws unless `value` is an integer >= 0. */
export function assertNonNegativeInteger(argument: string, value: unknown, where?: string): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < 0) fail(argument, value, 'an integer >= 0', where);
}

/** Throws unless `value` is an integer in [`min`, `max`] (`max` defaults to no upper bound). */
export function assertIntegerInRange(argument: string, value: unknown, min: number, max: number = Number.POSITIVE_INFINITY, where?: string): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    fail(argument, value, max === Number.POSITIVE_INFINITY ? `an integer >= ${min}` : `an integer from ${min} to ${max}`, where);
  }
}

/** Throws unless `value` is a finite number (not NaN, not ±Infinity). */
export function assertFiniteNumber(argument: string, value: unknown, where?: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(argument, value, 'a finite number', where);
}

/** Throws unless `value` is a finite number >= 0. */
export function assertNonNegativeNumber(argument: string, value: unknown, where?: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(argument, value, 'a finite number >= 0', where);
}

/** Throws unless `value` is a finite number > 0. */
export function assertPositiveNumber(argument: string, value: unknown, where?: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(argument, value, 'a finite number > 0', where);
}

/** Throws unless `value` is a number in [`min`, `max`]. */
export function assertNumberInRange(argument: string, value: unknown, min: number, max: number, where?: string): asserts value is number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) fail(argument, value, `a number in [${min}, ${max}]`, where);
}

/** Throws unless `value` is a probability: a number in [0, 1]. */
export function assertProbability(argument: string, value: unknown, where?: string): asserts value is number {
  assertNumberInRange(argument, value, 0, 1, where);
}

/** Throws unless `value` is a string with at least one character. */
export function assertNonEmptyString(argument: string, value: unknown, where?: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) fail(argument, value, 'a non-empty string', where);
}

/** Throws unless `value` is a string (the empty string included). */
export function assertString(argument: string, value: unknown, where?: string): asserts value is string {
  if (typeof value !== 'string') fail(argument, value, 'a string', where);
}
