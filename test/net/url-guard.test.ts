import { asAppError } from '../../src/http/problem.js';
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  SourceUnreachableError,
  assertAllowedAddresses,
  assertPublicHttpUrl,
  classifyAddress,
  pinnedLookup,
  type AddressClass,
} from '../../src/net/url-guard.js';

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

describe('classifyAddress of IPv6 addresses that carry an IPv4 address', () => {
  // [address, class, what form it is]. Forms the OS or network routes to the IPv4 address inside
  // take its class; deprecated forms are refused even with a public IPv4 inside; Teredo and
  // local-use NAT64 are refused whatever they carry.
  it.each<[string, AddressClass, string]>([
    ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped, dotted'],
    ['::ffff:7f00:1', 'loopback', 'IPv4-mapped, hex'],
    ['::FFFF:7F00:0001', 'loopback', 'IPv4-mapped, upper case'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'loopback', 'IPv4-mapped, uncompressed'],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', 'loopback', 'IPv4-mapped, zero-padded'],
    ['::ffff:127.0.0.1%lo', 'loopback', 'IPv4-mapped with a zone id'],
    ['::ffff:a00:1', 'private', 'IPv4-mapped 10.0.0.1'],
    ['::ffff:c0a8:101', 'private', 'IPv4-mapped 192.168.1.1'],
    ['::ffff:169.254.169.254', 'link-local', 'IPv4-mapped metadata endpoint'],
    ['::ffff:6440:1', 'shared', 'IPv4-mapped 100.64.0.1'],
    ['::ffff:0:0', 'unspecified', 'IPv4-mapped 0.0.0.0'],
    ['::ffff:e000:1', 'multicast', 'IPv4-mapped 224.0.0.1'],
    ['::ffff:ffff:ffff', 'reserved', 'IPv4-mapped broadcast'],
    ['::ffff:8.8.8.8', 'public', 'IPv4-mapped public, dotted'],
    ['::ffff:808:808', 'public', 'IPv4-mapped public, hex'],
    ['::127.0.0.1', 'loopback', 'IPv4-compatible, dotted'],
    ['::7f00:1', 'loopback', 'IPv4-compatible, hex'],
    ['::10.0.0.1', 'private', 'IPv4-compatible 10.0.0.1'],
    ['::a9fe:a9fe', 'link-local', 'IPv4-compatible metadata endpoint'],
    ['::2', 'unspecified', 'IPv4-compatible 0.0.0.2'],
    ['::8.8.8.8', 'reserved', 'IPv4-compatible public: deprecated, refused'],
    ['::808:808', 'reserved', 'IPv4-compatible public, hex'],
    ['::ffff:0:127.0.0.1', 'loopback', 'IPv4-translated, dotted'],
    ['::ffff:0:7f00:1', 'loopback', 'IPv4-translated, hex'],
    ['::ffff:0:c0a8:1', 'private', 'IPv4-translated 192.168.0.1'],
    ['::ffff:0:8.8.8.8', 'reserved', 'IPv4-translated public: refused'],
    ['64:ff9b::127.0.0.1', 'loopback', 'NAT64, dotted'],
    ['64:ff9b::7f00:1', 'loopback', 'NAT64, hex'],
    ['64:ff9b::a9fe:a9fe', 'link-local', 'NAT64 metadata endpoint'],
    ['64:ff9b::a01:203', 'private', 'NAT64 10.1.2.3'],
    ['64:ff9b::8.8.8.8', 'public', 'NAT64 public: what DNS64 answers for IPv4-only sites'],
    ['64:ff9b::808:808', 'public', 'NAT64 public, hex'],
    ['64:ff9b:1::7f00:1', 'private', 'local-use NAT64, loopback in the /96 position'],
    ['64:ff9b:1:7f00:1::', 'private', 'local-use NAT64, loopback in the /48 position'],
    ['64:ff9b:1::808:808', 'private', 'local-use NAT64, public inside: refused'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'private', 'local-use NAT64, last address'],
    ['2002:7f00:1::', 'loopback', '6to4 127.0.0.1'],
    ['2002:7f00:0001:0:0:0:0:1', 'loopback', '6to4, uncompressed'],
    ['2002:a00:1::1', 'private', '6to4 10.0.0.1'],
    ['2002:c0a8:101:1::1', 'private', '6to4 192.168.1.1 with a subnet'],
    ['2002:a9fe:a9fe::', 'link-local', '6to4 metadata endpoint'],
    ['2002:6440:1::', 'shared', '6to4 100.64.0.1'],
    ['2002::', 'unspecified', '6to4 0.0.0.0'],
    ['2002:e000:1::', 'multicast', '6to4 224.0.0.1'],
    ['2002:c058:6301::', 'reserved', '6to4 192.88.99.1, the deprecated relay anycast'],
    ['2002:808:808::1', 'public', '6to4 public'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'reserved', 'Teredo, client 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'reserved', 'Teredo, client 8.8.8.8: refused all the same'],
    ['2001:0:a00:1::', 'reserved', 'Teredo, server 10.0.0.1'],
    ['2001::', 'reserved', 'Teredo, first address'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved', 'Teredo, last address'],
  ])('classifies %s as %s (%s)', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each<[string, AddressClass, string]>([
    ['::ffff:1:0:0', 'reserved', 'next to IPv4-translated: unassigned'],
    ['64:ff9b:0:0:0:1:808:808', 'reserved', 'next to NAT64 /96: unassigned'],
    ['64:ff9a::808:808', 'reserved', 'below NAT64: unassigned'],
    ['2001:2::1', 'reserved', 'benchmarking (IETF protocol assignments)'],
    ['2001:1ff:ffff::1', 'reserved', 'last of the IETF protocol assignments'],
    ['2001:200::1', 'public', 'first allocation after them'],
    ['2003::1', 'public', 'first allocation after 6to4'],
    ['3fff::1', 'reserved', 'documentation (RFC 9637)'],
    ['5f00::1', 'reserved', 'segment routing'],
    ['4000::1', 'reserved', 'outside global unicast 2000::/3'],
    ['1fff:ffff::1', 'reserved', 'below global unicast'],
    ['example.com', 'reserved', 'not an IP literal'],
    ['', 'reserved', 'empty'],
    ['::ffff:256.0.0.1', 'reserved', 'invalid dotted tail'],
    ['1.2.3', 'reserved', 'shorthand IPv4 the resolver would not return'],
  ])('classifies the neighbour %s as %s (%s)', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('assertAllowedAddresses (what a host name resolved to)', () => {
  const publicA = { address: '93.184.216.34', family: 4 };
  it.each(['::ffff:127.0.0.1', '::ffff:7f00:1', '::127.0.0.1', '::ffff:0:10.0.0.1', '64:ff9b::169.254.169.254', '2002:c0a8:101::1', '2001:0:4136:e378:8000:63bf:80ff:fffe', '64:ff9b:1::808:808'])(
    'refuses a host with an AAAA answer %s, even next to a public A answer',
    (address) => {
      for (const answers of [[{ address, family: 6 }], [publicA, { address, family: 6 }], [{ address, family: 6 }, publicA]]) {
        expect(() => assertAllowedAddresses('files.example.com', answers, { allowPrivate: false })).toThrow(
          expect.objectContaining({ reason: 'refused-address' }),
        );
      }
    },
  );

  it('returns the first answer when every one is public', () => {
    const nat64 = { address: '64:ff9b::5db8:d822', family: 6 };
    expect(assertAllowedAddresses('files.example.com', [nat64, publicA], { allowPrivate: false })).toBe(nat64);
  });

  it('lets internal answers through when private addresses are allowed', () => {
    const mapped = { address: '::ffff:127.0.0.1', family: 6 };
    expect(assertAllowedAddresses('localhost', [mapped], { allowPrivate: true })).toBe(mapped);
  });
});

describe('assertPublicHttpUrl', () => {
  // Literal addresses resolve to themselves: nothing here leaves the machine.
  it.each([
    'http://127.0.0.1/file.pdf',
    'http://localhost:8080/file.pdf',
    'https://[::1]/file.pdf',
    'http://[::ffff:127.0.0.1]/',
    'http://[0:0:0:0:0:ffff:7f00:0001]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[2002:7f00:1::1]:8080/',
    'http://[2002:a9fe:a9fe::]/latest/meta-data/',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'https://[::8.8.8.8]/',
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
    expect(error).toMatchObject({ reason: 'refused-address' });
    // The status is the HTTP layer's: 422, with the reason in the problem body.
    expect(asAppError(error)).toMatchObject({ status: 422, extensions: { reason: 'refused-address' } });
  });

  it('accepts a public literal and returns it as the address to connect to', async () => {
    const vetted = await assertPublicHttpUrl('https://93.184.216.34/docs/a.pdf?x=1', { allowPrivate: false });

    expect(vetted).toEqual({ url: new URL('https://93.184.216.34/docs/a.pdf?x=1'), address: '93.184.216.34', family: 4 });
  });

  it.each([
    ['http://[::ffff:8.8.8.8]/a.pdf', '::ffff:808:808'],
    ['http://[64:ff9b::8.8.8.8]/a.pdf', '64:ff9b::808:808'],
    ['http://[2002:808:808::1]/a.pdf', '2002:808:808::1'],
  ])('accepts %s, an IPv6 form of a public IPv4 address the network routes', async (url, address) => {
    expect(await assertPublicHttpUrl(url, { allowPrivate: false })).toMatchObject({ address, family: 6 });
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
