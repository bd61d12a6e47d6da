/**
 * An address as it may be printed (status, sync's wrong-base-URL hint): a user, a password or a query (an `api_key`
 * parameter is a secret; a URL is not) replaced by `…`, so the reader sees that one is there without seeing it.
 */
export function shownAddress(address: string): string {
  try {
    const url = new URL(address);
    if (url.username === '' && url.password === '' && url.search === '') return address;
    if (url.username !== '') url.username = '…';
    if (url.password !== '') url.password = '…';
    if (url.search !== '') url.search = '?…';
    // URL encodes the `…` it was given (%E2%80%A6): shown as the character
    return url.toString().replaceAll(encodeURIComponent('…'), '…');
  } catch {
    return '(not a URL)';
  }
}
