import { describe, expect, it } from 'vitest';
import { SignInThrottle, THROTTLED_ADDRESSES } from '../../../src/server/pages/sign-in-throttle.js';

describe('SignInThrottle memory', () => {
  it('remembers 10,000 addresses by default', () => {
    expect(THROTTLED_ADDRESSES).toBe(10_000);
  });

  it('keeps at most its bound of addresses, dropping the one whose last wrong token is oldest', () => {
    let now = 0;
    const throttle = new SignInThrottle(() => now, 3);
    for (const address of ['a', 'b', 'c']) {
      throttle.fail(address);
      now += 1;
    }
    expect(throttle.fail('a')).toBe(2); // a failed again: b is now the least recent
    throttle.fail('d');
    expect(throttle.size).toBe(3);
    expect(throttle.fail('b')).toBe(1); // b was dropped, so its count starts over (and c goes)
    expect(throttle.fail('a')).toBe(3);
    expect(throttle.size).toBe(3);
  });

  it('forgets an address once its last wrong token is a minute old, and at the right token', () => {
    let now = 0;
    const throttle = new SignInThrottle(() => now);
    for (let i = 0; i < 5; i++) throttle.fail('a');
    throttle.fail('b');
    expect(throttle.retryAfterS('a')).toBe(60);
    now = 60_000;
    expect(throttle.retryAfterS('a')).toBe(0);
    expect(throttle.size).toBe(1);
    throttle.forget('b');
    expect(throttle.size).toBe(0);
  });
});
