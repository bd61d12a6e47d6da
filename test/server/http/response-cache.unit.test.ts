import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../src/server/http/response-cache.js';

/** A cache whose builds are counted: `ask(key, version)` answers the body `key@version`. */
function countedCache(maxChars?: number) {
  const cache = new ResponseCache(maxChars);
  const built: string[] = [];
  const ask = (key: string, version: string) =>
    cache.get(key, version, () => {
      built.push(`${key}@${version}`);
      return `${key}@${version}`;
    });
  return { cache, built, ask };
}

describe('ResponseCache: list bodies reused while the store has not changed', () => {
  it('builds a body once per key while the version stands', () => {
    const { built, ask } = countedCache();
    expect(ask('locks|{}', 'v1')).toBe('locks|{}@v1');
    expect(ask('locks|{}', 'v1')).toBe('locks|{}@v1');
    expect(ask('no24|{}', 'v1')).toBe('no24|{}@v1');
    expect(built).toEqual(['locks|{}@v1', 'no24|{}@v1']);
  });

  it('drops every body of the old version when the version moves: none can be asked for again', () => {
    const { cache, built, ask } = countedCache();
    // a monitor's cursors move with the world: 'a' and 'b' under v1, then only 'c' is asked under v2
    ask('a', 'v1');
    ask('b', 'v1');
    expect(cache.held).toEqual({ bodies: 2, chars: 8 }); // 'a@v1' and 'b@v1', 4 characters each
    expect(ask('c', 'v2')).toBe('c@v2');
    expect(cache.held).toEqual({ bodies: 1, chars: 4 });
    // a key asked again under the new version is built again, never served from the old one
    expect(ask('a', 'v2')).toBe('a@v2');
    expect(built).toEqual(['a@v1', 'b@v1', 'c@v2', 'a@v2']);
  });

  it('keeps at most maxChars within a version, and answers a body past the bound without keeping it', () => {
    const { cache, built, ask } = countedCache(10);
    ask('abc', 'v1'); // 'abc@v1': 6 characters, kept
    ask('de', 'v1'); // 'de@v1': 5 more would make 11 > 10: answered, not kept
    expect(cache.held).toEqual({ bodies: 1, chars: 6 });
    expect(ask('de', 'v1')).toBe('de@v1');
    expect(ask('abc', 'v1')).toBe('abc@v1');
    expect(built).toEqual(['abc@v1', 'de@v1', 'de@v1']);
  });
});
