import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  SourceUnreachableError,
  assertPublicHttpUrl,
  classifyAddress,
  pinnedLookup,
  type AddressClass,
} from '../../src/pipeline/url-guard.js';

describe('classifyAddress', () => {
  it.each<[string, AddressClass]>([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each<[string, AddressClass]>([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:100.64.0.1', 'shared'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['64:ff9b::c0a8:101', 'private'],
    ['64:ff9b::', 'unspecified'],
  ])('sees through the IPv6 form %s of an IPv4 address (%s)', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '11.0.0.1',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822',
    '2606:2800:220:1:248:1893:25c8:1946',
  ])('classifies %s as public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });
});

describe('assertPublicHttpUrl', () => {
  // Literal addresses resolve to themselves: nothing here leaves the machine.
  it.each([
    'http://127.0.0.1/file.pdf',
    'http://localhost:8080/file.pdf',
    'https://[::1]/file.pdf',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/', // 127.0.0.1 written as one number
    'http://0x7f.1/', // and in hex shorthand
    'http://0/',
    'http://10.0.0.5/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
    'http://100.100.100.100/',
  ])('refuses %s', async (url) => {
    const error = await assertPublicHttpUrl(url, { allowPrivate: false }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(SourceUnreachableError);
    expect(error).toMatchObject({ reason: 'refused-address', status: 422, extensions: { reason: 'refused-address' } });
  });

  it('accepts a public literal and returns it as the address to connect to', async () => {
    const vetted = await assertPublicHttpUrl('https://93.184.216.34/docs/a.pdf?x=1', { allowPrivate: false });

    expect(vetted).toEqual({ url: new URL('https://93.184.216.34/docs/a.pdf?x=1'), address: '93.184.216.34', family: 4 });
  });

  it('accepts loopback hosts when private addresses are allowed', async () => {
    const vetted = await assertPublicHttpUrl('http://localhost:1/', { allowPrivate: true });

    expect(classifyAddress(vetted.address)).toBe('loopback');
    expect(vetted.family).toBe(vetted.address.includes(':') ? 6 : 4);
  });

  it.each(['ftp://93.184.216.34/a.pdf', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '/relative/path'])(
    'refuses %j as an invalid URL even when private addresses are allowed',
    async (url) => {
      await expect(assertPublicHttpUrl(url, { allowPrivate: true })).rejects.toMatchObject({ reason: 'invalid-url' });
    },
  );

  it('reports a host that does not resolve as a network failure', async () => {
    // .invalid is reserved never to resolve (RFC 6761).
    await expect(assertPublicHttpUrl('http://no-such-host.invalid/', { allowPrivate: false })).rejects.toMatchObject({
      reason: 'network',
    });
  });
});

describe('pinnedLookup', () => {
  const lookup = pinnedLookup({ url: new URL('http://files.example.com/'), address: '93.184.216.34', family: 4 });

  it('answers a single-address lookup with the vetted address whatever the host name', () => {
    const answers: unknown[] = [];
    lookup('files.example.com', {}, (err, address, family) => answers.push(err, address, family));

    expect(answers).toEqual([null, '93.184.216.34', 4]);
  });

  it('answers an all-addresses lookup (autoSelectFamily) with the vetted address only', () => {
    let addresses: string | LookupAddress[] | undefined;
    lookup('files.example.com', { all: true }, (_err, answer) => (addresses = answer));

    expect(addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});
