import { FactkitError, InvalidArgumentError } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from './config-file.js';

describe('ConfigFileError', () => {
  it('has its own marker: an InvalidArgumentError from elsewhere is not a ConfigFileError', () => {
    const error = new ConfigFileError({ file: 'factkit.config.json', key: 'topK', message: 'must be an integer' });
    expect(ConfigFileError.isInstance(error)).toBe(true);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(FactkitError.isInstance(error)).toBe(true);
    expect([error.file, error.key, error.message]).toEqual(['factkit.config.json', 'topK', 'factkit.config.json: key "topK" must be an integer']);
    expect(ConfigFileError.isInstance(new InvalidArgumentError({ argument: 'topK', message: 'must be an integer' }))).toBe(false);
  });
});
