import { InvalidArgumentError } from '@factkit/core';

export function assertFiniteArray(values: readonly number[], argument: string, where: string, minLength = 1): void {
  if (!Array.isArray(values)) throw new InvalidArgumentError({ where, argument, message: 'must be an array of numbers' });
  if (values.length < minLength) {
    throw new InvalidArgumentError({ where, argument, message: `must have at least ${minLength} value(s) (got ${values.length})` });
  }
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new InvalidArgumentError({ where, argument, message: `must contain only finite numbers (index ${index} is ${String(value)})` });
    }
  }
}
