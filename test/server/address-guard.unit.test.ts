import { describe, expect, it } from 'vitest';
import {
  AddressRefused,
  type CheckedTarget,
  checkWebhookUrl,
  classifyAddress,
  type Resolver,
} from '../../src/server/webhooks/address-guard.js';

/**
 * The SSRF guard for webhook URLs. Every name is answered by a fake resolver built on a Map: these tests never
 * query real DNS and never open a connection.
 */

const FAKE_DNS = new Map<string, string[]>([
  // what a typical system resolver answers for localhost
  ['localhost', ['127.0.0.1', '::1']],
  ['internal.example', ['10.0.0.5']],
  ['metadata.example', ['169.254.169.254']],
  ['v6internal.example', ['fd00::1']],
  ['mapped.example', ['::ffff:192.168.0.1']],
  ['nat64.example', ['64:ff9b::a00:1']],
  // DNS rebinding / mixed answer: public first, private second
  ['rebind.example', ['93.184.216.34', '10.0.0.1']],
  ['empty.example', []],
  ['garbage.example', ['not-an-ip']],
  ['public4.example', ['93.184.216.34']],
  ['public6.example', ['2606:2800:220:1:248:1893:25c8:1946']],
  ['dual.example', ['2606:4700:4700::1111', '1.1.1.1']],
]);

/** A resolver over FAKE_DNS that records every name it was asked for; unknown names fail like ENOTFOUND. */
function fakeResolver(): { resolve: Resolver; asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    const answer = FAKE_DNS.get(hostname);
    if (answer === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [...answer];
  };
  return { resolve, asked };
}

const SCHEME = 'only http and https webhook URLs are accepted';

/** [url, a fragment the refusal message must contain: it names the host, the address and the range]. */
const FORBIDDEN: [string, string][] = [
  // IPv4 literals, including the numeric forms WHATWG URL parsing rewrites to 127.0.0.1
  ['http://127.0.0.1/', 'webhook host 127.0.0.1 is 127.0.0.1 (loopback)'],
  ['http://127.1/', 'webhook host 127.0.0.1 is 127.0.0.1 (loopback)'],
  ['http://0x7f000001/', 'webhook host 127.0.0.1 is 127.0.0.1 (loopback)'],
  ['http://2130706433/', 'webhook host 127.0.0.1 is 127.0.0.1 (loopback)'],
  ['http://017700000001/', 'webhook host 127.0.0.1 is 127.0.0.1 (loopback)'],
  ['http://0x7f.1/', 'webhook host 127.0.0.1 is 127.0.0.1 (loopback)'],
  ['http://127.0.0.1./', 'webhook host 127.0.0.1 is 127.0.0.1 (loopback)'],
  ['http://0/', 'webhook host 0.0.0.0 is 0.0.0.0 (unspecified)'],
  ['http://0.0.0.0/', 'webhook host 0.0.0.0 is 0.0.0.0 (unspecified)'],
  ['http://10.0.0.1/', 'webhook host 10.0.0.1 is 10.0.0.1 (private)'],
  ['http://172.16.5.4/', 'webhook host 172.16.5.4 is 172.16.5.4 (private)'],
  ['http://192.168.1.1/', 'webhook host 192.168.1.1 is 192.168.1.1 (private)'],
  ['http://169.254.169.254/latest/meta-data', 'webhook host 169.254.169.254 is 169.254.169.254 (linkLocal)'],
  ['http://100.64.0.1/', 'webhook host 100.64.0.1 is 100.64.0.1 (carrierGradeNat)'],
  ['http://224.0.0.1/', 'webhook host 224.0.0.1 is 224.0.0.1 (multicast)'],
  ['http://255.255.255.255/', 'webhook host 255.255.255.255 is 255.255.255.255 (broadcast)'],
  ['http://240.0.0.1/', 'webhook host 240.0.0.1 is 240.0.0.1 (reserved)'],
  ['http://192.0.0.1/', 'webhook host 192.0.0.1 is 192.0.0.1 (reserved)'],
  ['https://192.0.2.1/', 'webhook host 192.0.2.1 is 192.0.2.1 (reserved)'],
  ['http://198.18.0.1/', 'webhook host 198.18.0.1 is 198.18.0.1 (reserved)'],
  // IPv6 literals (the host keeps its brackets; the address is the canonical form WHATWG produced)
  ['http://[::1]/', 'webhook host [::1] is ::1 (loopback)'],
  ['http://[::]/', 'webhook host [::] is :: (unspecified)'],
  ['http://[::ffff:127.0.0.1]/', 'webhook host [::ffff:7f00:1] is ::ffff:7f00:1 (loopback)'],
  ['http://[::ffff:7f00:1]/', 'webhook host [::ffff:7f00:1] is ::ffff:7f00:1 (loopback)'],
  ['http://[::ffff:10.0.0.1]/', 'webhook host [::ffff:a00:1] is ::ffff:a00:1 (private)'],
  ['http://[::7f00:1]/', 'webhook host [::7f00:1] is ::7f00:1 (ipv4Compatible)'],
  ['http://[fe80::1]/', 'webhook host [fe80::1] is fe80::1 (linkLocal)'],
  ['http://[fc00::1]/', 'webhook host [fc00::1] is fc00::1 (uniqueLocal)'],
  ['http://[fd12:3456::1]/', 'webhook host [fd12:3456::1] is fd12:3456::1 (uniqueLocal)'],
  ['http://[ff02::1]/', 'webhook host [ff02::1] is ff02::1 (multicast)'],
  ['http://[64:ff9b::a00:1]/', 'webhook host [64:ff9b::a00:1] is 64:ff9b::a00:1 (rfc6052)'],
  ['http://[2002:a00:1::]/', 'webhook host [2002:a00:1::] is 2002:a00:1:: (6to4)'],
  ['http://[2001::1]/', 'webhook host [2001::1] is 2001::1 (teredo)'],
  ['http://[4000::1]/', 'webhook host [4000::1] is 4000::1 (reserved)'],
  // names, answered by the fake resolver
  ['http://localhost/', 'webhook host localhost resolves to 127.0.0.1 (loopback)'],
  ['http://LOCALHOST:3000/', 'webhook host localhost resolves to 127.0.0.1 (loopback)'],
  ['http://internal.example/', 'webhook host internal.example resolves to 10.0.0.5 (private)'],
  ['http://metadata.example/latest/meta-data', 'webhook host metadata.example resolves to 169.254.169.254 (linkLocal)'],
  ['https://v6internal.example:8443/', 'webhook host v6internal.example resolves to fd00::1 (uniqueLocal)'],
  ['http://mapped.example/', 'webhook host mapped.example resolves to ::ffff:192.168.0.1 (private)'],
  ['http://nat64.example/', 'webhook host nat64.example resolves to 64:ff9b::a00:1 (rfc6052)'],
  ['http://rebind.example/', 'webhook host rebind.example resolves to 10.0.0.1 (private)'],
  ['http://garbage.example/', 'webhook host garbage.example resolves to not-an-ip (invalid)'],
  ['http://empty.example/', 'webhook host empty.example resolves to no address'],
  ['http://nx.example/', 'webhook host nx.example could not be resolved'],
  // schemes, credentials, garbage
  ['ftp://8.8.8.8/', `${SCHEME} (got ftp: for host 8.8.8.8)`],
  ['file:///etc/passwd', `${SCHEME} (got file:)`],
  ['gopher://8.8.8.8:70/_', `${SCHEME} (got gopher: for host 8.8.8.8)`],
  ['javascript:alert(1)', `${SCHEME} (got javascript:)`],
  ['ws://8.8.8.8/', `${SCHEME} (got ws: for host 8.8.8.8)`],
  ['http://user:pass@8.8.8.8/', 'webhook URL for host 8.8.8.8 must not contain a username or password'],
  ['not a url', 'webhook URL is not a valid absolute URL'],
  ['', 'webhook URL is not a valid absolute URL'],
];

/** [url, the address the connection must be pinned to, its family]. */
const ALLOWED: [string, string, 4 | 6][] = [
  ['https://8.8.8.8/hook', '8.8.8.8', 4],
  ['http://1.1.1.1:8080/x', '1.1.1.1', 4],
  ['https://[2606:4700:4700::1111]/', '2606:4700:4700::1111', 6],
  ['http://[::ffff:8.8.8.8]/', '::ffff:808:808', 6],
  ['https://public4.example/hook?x=1', '93.184.216.34', 4],
  ['https://public6.example/', '2606:2800:220:1:248:1893:25c8:1946', 6],
  ['https://dual.example/', '2606:4700:4700::1111', 6],
];

async function refusal(url: string, allowPrivate = false): Promise<AddressRefused> {
  const { resolve } = fakeResolver();
  const error = await checkWebhookUrl(url, { allowPrivate, resolve }).then(
    (target: CheckedTarget) => new Error(`expected a refusal, got ${target.address}`),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AddressRefused)) throw error;
  return error;
}

describe('checkWebhookUrl refuses', () => {
  it('at least 30 forbidden vectors', () => {
    expect(FORBIDDEN.length).toBeGreaterThanOrEqual(30);
  });

  it.each(FORBIDDEN)('%s', async (url, fragment) => {
    const error = await refusal(url);
    expect(error.name).toBe('AddressRefused');
    expect(error.message).toContain(fragment);
  });

  it('address refusals say which targets are refused', async () => {
    expect((await refusal('http://internal.example/')).message).toBe(
      'webhook host internal.example resolves to 10.0.0.5 (private); private, loopback and link-local targets are refused',
    );
  });

  it('does not echo the credentials of a URL', async () => {
    expect((await refusal('http://admin:s3cret@8.8.8.8/')).message).not.toContain('s3cret');
  });

  it('a name answering a public address first and a private one second', async () => {
    const { resolve, asked } = fakeResolver();
    await expect(checkWebhookUrl('https://rebind.example/hook', { allowPrivate: false, resolve })).rejects.toThrow(
      /resolves to 10\.0\.0\.1 \(private\)/,
    );
    expect(asked).toEqual(['rebind.example']);
  });
});

describe('checkWebhookUrl accepts and pins', () => {
  it('at least 5 allowed vectors', () => {
    expect(ALLOWED.length).toBeGreaterThanOrEqual(5);
  });

  it.each(ALLOWED)('%s -> %s (IPv%i)', async (url, address, family) => {
    const { resolve } = fakeResolver();
    const target = await checkWebhookUrl(url, { allowPrivate: false, resolve });
    expect(target).toMatchObject({ address, family });
    expect(target.url.href).toBe(new URL(url).href);
  });

  it('never asks the resolver about an IP literal', async () => {
    const { resolve, asked } = fakeResolver();
    await checkWebhookUrl('https://8.8.8.8/', { allowPrivate: false, resolve });
    await checkWebhookUrl('https://[2606:4700:4700::1111]/', { allowPrivate: false, resolve });
    await expect(checkWebhookUrl('http://2130706433/', { allowPrivate: false, resolve })).rejects.toThrow(
      AddressRefused,
    );
    expect(asked).toEqual([]);
  });
});

describe('allowPrivate', () => {
  const check = (url: string) => checkWebhookUrl(url, { allowPrivate: true, resolve: fakeResolver().resolve });

  it('lifts the range refusal and still pins the checked address', async () => {
    expect(await check('http://127.0.0.1:8080/hook')).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(await check('http://127.1/')).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(await check('http://[::1]/')).toMatchObject({ address: '::1', family: 6 });
    expect(await check('http://localhost/')).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(await check('http://rebind.example/')).toMatchObject({ address: '93.184.216.34', family: 4 });
  });

  it('does not lift the scheme, credential or resolution refusals', async () => {
    for (const url of [
      'ftp://127.0.0.1/',
      'file:///etc/passwd',
      'http://user:pass@127.0.0.1/',
      'not a url',
      'http://empty.example/',
      'http://nx.example/',
      'http://garbage.example/',
    ]) {
      await expect(check(url), url).rejects.toThrow(AddressRefused);
    }
  });
});

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', true, 'unicast'],
    ['2606:4700:4700::1111', true, 'unicast'],
    ['::ffff:8.8.8.8', true, 'unicast'],
    ['127.0.0.1', false, 'loopback'],
    ['10.0.0.1', false, 'private'],
    ['::ffff:10.0.0.1', false, 'private'],
    ['100.100.100.100', false, 'carrierGradeNat'],
    ['0.1.2.3', false, 'unspecified'],
    ['::ffff:0:a00:1', false, 'rfc6145'],
    ['::a00:1', false, 'ipv4Compatible'],
    ['e000::1', false, 'reserved'],
    ['2001:db8::1', false, 'reserved'],
    ['fec0::1', false, 'deprecatedSiteLocal'],
    ['not-an-ip', false, 'invalid'],
  ])('%s -> allowed %s (%s)', (ip, allowed, range) => {
    expect(classifyAddress(ip)).toEqual({ allowed, range });
  });
});
