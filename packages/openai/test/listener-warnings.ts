import { afterEach, beforeEach } from 'vitest';

/**
 * Records the process warnings emitted during each test (registered per test, removed after) and returns a function
 * giving the MaxListenersExceededWarning ones, after one short wait: Node emits warnings on a later tick.
 */
export function useListenerWarnings(): () => Promise<Error[]> {
  let warnings: Error[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(warning);
  };
  beforeEach(() => {
    warnings = [];
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning');
  };
}
