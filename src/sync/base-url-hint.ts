import { API_PREFIX } from '../contract/limits.js';
import { shownAddress } from '../domain/shown-address.js';
import type { StreamOutcome, SyncSummary } from './sync-summary.js';

/**
 * DESIGN 3 `sync`: when every stream of a pass failed with a 404 or an HTML answer, the address is not the API (the
 * account pages, a web server, a path typed wrong); one line says so, naming the address in use and what the API's
 * would be. Null when any stream of the pass answered as the API or failed otherwise.
 */
export function wrongBaseUrlHint(pass: SyncSummary, baseUrl: string): string | null {
  const answers = [...Object.keys(pass.streams).map(() => false), ...pass.errors.map((e) => e.notTheApi === true)];
  return everyAnswerNotTheApi(answers) ? wrongBaseUrlLine(baseUrl) : null;
}

/** A stream's pass answered 404 or HTML and stored nothing: not the API. */
export const answeredNotTheApi = (outcome: StreamOutcome): boolean =>
  outcome.error?.notTheApi === true && !outcome.counts;

/** The one rule (`sync --once` and the daemon): streams answered, and every one of them 404 or HTML. */
export const everyAnswerNotTheApi = (answers: readonly boolean[]): boolean =>
  answers.length > 0 && answers.every(Boolean);

/** The hint's line, naming the address in use and the API's at its host. */
export function wrongBaseUrlLine(baseUrl: string): string {
  const used = shownAddress(baseUrl);
  let example = '';
  try {
    example = ` (as ${new URL(baseUrl).origin}${API_PREFIX})`;
  } catch {
    // an address that does not parse gives no example
  }
  return (
    `the base URL is probably wrong: every stream answered 404 or HTML from ${used}; ` +
    `it should be the service's address ending with ${API_PREFIX}${example}`
  );
}
