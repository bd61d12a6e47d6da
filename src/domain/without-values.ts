/**
 * `text` with each of `values` (as given, URL-encoded or JSON-escaped) replaced by `…`: how a secret is cut from
 * whatever text could carry it (an argument error, a service's answer that echoes what it was sent). Longest first,
 * so a value that holds another is cut whole.
 */
export function withoutValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of [...values].filter((v) => v.length > 0).sort((a, b) => b.length - a.length)) {
    for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
      out = out.split(form).join('…');
    }
  }
  return out;
}
