import type { Answer } from '../cache/index.js';
import { receivedText } from '../client/api-client.js';

/**
 * The answer `value` (what the client returned) was parsed from, under the stream's own name for its request, for
 * the cache to skip rows it has already stored as they are (cache/db/answer-memo.ts). Names are few and fixed
 * (a stream, a city, a status), since the cache keeps the newest text of each.
 */
export function answerOf(source: string, value: object): Answer | undefined {
  const text = receivedText(value);
  return text === undefined ? undefined : { source, text };
}
