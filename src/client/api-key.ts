/**
 * Why a key cannot go into an HTTP header as it is, or undefined when it can. undici refuses a header value with a
 * line break, a control character or a character beyond Latin-1 (and keeps a connection slot for each refusal), and
 * HTTP trims the spaces around a value, so a key with any of those would never reach the service as written. The
 * reason never quotes the key.
 */
export function apiKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'is empty';
  if (/[\r\n]/.test(key)) return 'contains a line break (a key file saved with Windows line ends?)';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'contains a control character';
  if ([...key].some((c) => (c.codePointAt(0) ?? 0) > 0xff))
    return 'contains a character outside Latin-1 (header values cannot carry it)';
  if (key.trim() !== key) return 'starts or ends with a space';
  return undefined;
}

/** Why an address is not one the client can call, or undefined: only http and https, parsed by the WHATWG URL. */
export function baseUrlProblem(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'is not a URL (it must look like https://host[:port])';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http:// or https:// URL';
  return undefined;
}
