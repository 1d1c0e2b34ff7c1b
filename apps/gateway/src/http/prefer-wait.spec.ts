import { MAX_WAIT_MS, preferredWaitMs } from './prefer-wait';

describe('preferredWaitMs', () => {
  it('finds the wait preference among others, with or without seconds', () => {
    expect(preferredWaitMs(undefined)).toBeUndefined();
    expect(preferredWaitMs('return=minimal')).toBeUndefined();
    expect(preferredWaitMs('wait')).toBe(MAX_WAIT_MS);
    expect(preferredWaitMs('return=minimal, Wait=3')).toBe(3000);
    expect(preferredWaitMs(['respond-async', 'wait=600'])).toBe(MAX_WAIT_MS);
    expect(preferredWaitMs('wait=soon')).toBe(MAX_WAIT_MS);
  });
});
