/**
 * SSRF guard for client-supplied source URLs (`context.url`): only http(s), and only hosts whose
 * every address is public unless private addresses are explicitly allowed (dev and tests). The
 * address that passed the check is the one connected to, so a second DNS answer (rebinding)
 * cannot redirect the request to an internal host after the check.
 */
import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIPv4, isIPv6, type LookupFunction } from 'node:net';

export type SourceFailureReason =
  | 'invalid-url'
  | 'refused-address'
  | 'timeout'
  | 'network'
  | 'too-many-redirects'
  | `http-${number}`;

/**
 * A source URL that cannot be used; the HTTP layer answers it with 422 and the reason in the
 * problem body (http/problem.ts `asAppError`).
 */
export class SourceUnreachableError extends Error {
  constructor(
    readonly reason: SourceFailureReason,
    detail: string,
    options: { cause?: unknown } = {},
  ) {
    super(detail, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
  }
}

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'shared'
  | 'reserved';

type Family = 'ipv4' | 'ipv6';
const BITS: Record<Family, number> = { ipv4: 32, ipv6: 128 };

/**
 * An IP address as a number of 32 (IPv4) or 128 (IPv6) bits, matched against prefixes bit by bit.
 * (node:net's BlockList is not used: it matches IPv4 addresses against IPv6 rules and back through
 * their mapped forms, which blurs the IPv6 ranges below.)
 */
interface IpAddress {
  family: Family;
  value: bigint;
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail allowed). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  const hex = dotted ? address.slice(0, -dotted.length) + ipv4Groups(dotted).map((g) => g.toString(16)).join(':') : address;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const headGroups = parse(head);
  if (tail === undefined) return headGroups;
  const tailGroups = parse(tail);
  return [...headGroups, ...new Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

function ipv4Groups(address: string): [number, number] {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

function fromGroups(groups: number[]): bigint {
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** Parses an IP literal in any textual form (IPv6 with a dotted tail, a zone id); undefined if it is none. */
function parseAddress(literal: string): IpAddress | undefined {
  // A zone id (fe80::1%eth0) names the interface, not the address.
  const address = literal.split('%')[0] ?? literal;
  if (isIPv4(address)) return { family: 'ipv4', value: fromGroups(ipv4Groups(address)) };
  if (isIPv6(address)) return { family: 'ipv6', value: fromGroups(ipv6Groups(address)) };
  return undefined;
}

interface Cidr {
  family: Family;
  network: bigint;
  prefix: number;
}

function cidr(text: string): Cidr {
  const [network = '', prefix = ''] = text.split('/');
  const parsed = parseAddress(network);
  if (!parsed) throw new Error(`not a network: ${text}`);
  return { family: parsed.family, network: parsed.value, prefix: Number(prefix) };
}

function contains(range: Cidr, ip: IpAddress): boolean {
  if (range.family !== ip.family) return false;
  const hostBits = BigInt(BITS[ip.family] - range.prefix);
  return ip.value >> hostBits === range.network >> hostBits;
}

/** Every range that must not be reachable from a client-supplied URL, by why it is refused. */
const refusedRanges: ReadonlyArray<readonly [Exclude<AddressClass, 'public'>, Cidr]> = (
  [
    ['unspecified', '0.0.0.0/8'], // "this network"; 0.0.0.0 reaches the local host on Linux
    ['unspecified', '::/128'],
    ['loopback', '127.0.0.0/8'],
    ['loopback', '::1/128'],
    ['private', '10.0.0.0/8'],
    ['private', '172.16.0.0/12'],
    ['private', '192.168.0.0/16'],
    ['private', 'fc00::/7'],
    // Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the prefix length the
    // network chose, so it cannot be told whether it is an internal one: refused as internal.
    ['private', '64:ff9b:1::/48'],
    ['shared', '100.64.0.0/10'], // carrier-grade NAT (RFC 6598)
    ['link-local', '169.254.0.0/16'], // includes cloud metadata endpoints
    ['link-local', 'fe80::/10'],
    ['multicast', '224.0.0.0/4'],
    ['multicast', 'ff00::/8'],
    ['reserved', '192.0.0.0/24'], // IETF protocol assignments
    ['reserved', '192.0.2.0/24'], // documentation
    ['reserved', '192.88.99.0/24'], // 6to4 relay anycast, deprecated (RFC 7526)
    ['reserved', '198.18.0.0/15'], // benchmarking
    ['reserved', '198.51.100.0/24'], // documentation
    ['reserved', '203.0.113.0/24'], // documentation
    ['reserved', '240.0.0.0/4'], // future use and the broadcast address
    ['reserved', '100::/64'], // discard
    // IETF protocol assignments, Teredo (2001::/32) among them: a Teredo address reaches a host
    // behind a NAT through relays, never a file server, so it is refused whatever IPv4 addresses
    // (server, obfuscated client) it carries.
    ['reserved', '2001::/23'],
    ['reserved', '2001:db8::/32'], // documentation
    ['reserved', '3fff::/20'], // documentation (RFC 9637)
    ['reserved', '5f00::/16'], // segment routing identifiers (RFC 9602)
    ['reserved', 'fec0::/10'], // deprecated site-local, still routed internally by some networks
  ] as const
).map(([addressClass, range]) => [addressClass, cidr(range)] as const);

/**
 * IPv6 ranges that carry an IPv4 address (`shift`: how far right the 32 bits sit). Such an address
 * is classified by the IPv4 address it carries. `routed`: the OS or the network delivers the packet
 * to that IPv4 address, so a public one is as good as the IPv4 address itself; the others are
 * deprecated forms no legitimate host uses, refused even with a public IPv4 address inside.
 */
const ipv4Embeddings: ReadonlyArray<{ range: Cidr; shift: bigint; routed: boolean }> = [
  { range: cidr('::ffff:0:0/96'), shift: 0n, routed: true }, // IPv4-mapped: a dual-stack socket connects over IPv4
  { range: cidr('64:ff9b::/96'), shift: 0n, routed: true }, // NAT64 well-known prefix (RFC 6052)
  { range: cidr('2002::/16'), shift: 80n, routed: true }, // 6to4 (RFC 3056): bits 16 to 48
  { range: cidr('::ffff:0:0:0/96'), shift: 0n, routed: false }, // IPv4-translated (RFC 2765)
  { range: cidr('::/96'), shift: 0n, routed: false }, // IPv4-compatible, deprecated (RFC 4291); :: and ::1 are refused above
];

/** Every globally routable IPv6 unicast address is in 2000::/3; anything else left is unassigned. */
const globalUnicast = cidr('2000::/3');

function classifyParsed(ip: IpAddress): AddressClass {
  for (const [addressClass, range] of refusedRanges) {
    if (contains(range, ip)) return addressClass;
  }
  if (ip.family === 'ipv4') return 'public';
  for (const { range, shift, routed } of ipv4Embeddings) {
    if (!contains(range, ip)) continue;
    const embedded = classifyParsed({ family: 'ipv4', value: (ip.value >> shift) & 0xffffffffn });
    return embedded !== 'public' || routed ? embedded : 'reserved';
  }
  return contains(globalUnicast, ip) ? 'public' : 'reserved';
}

/**
 * What kind of address an IP literal is; anything but `public` is refused for source URLs. IPv6
 * forms that carry an IPv4 address are judged by that address; text that is no IP literal is
 * `reserved`.
 */
export function classifyAddress(literal: string): AddressClass {
  const ip = parseAddress(literal);
  return ip ? classifyParsed(ip) : 'reserved';
}

export interface VettedUrl {
  url: URL;
  /** The resolved address that passed the check: connect to this one only (see pinnedLookup). */
  address: string;
  family: 4 | 6;
}

export interface UrlGuardOptions {
  allowPrivate: boolean;
  /** Abandons a slow DNS resolution (the lookup itself cannot be cancelled). */
  signal?: AbortSignal;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

async function resolveAll(hostname: string, signal: AbortSignal | undefined) {
  const resolution = lookup(hostname, { all: true, verbatim: true });
  try {
    return await (signal ? Promise.race([resolution, rejectOnAbort(signal)]) : resolution);
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new SourceUnreachableError('network', `The host ${hostname} could not be resolved.`, { cause: err });
  }
}

/**
 * Checks that `url` is http(s) and that every address its host resolves to is allowed; returns
 * the address to connect to. Throws SourceUnreachableError (`invalid-url`, `refused-address`,
 * `network`) otherwise.
 */
export async function assertPublicHttpUrl(url: string | URL, options: UrlGuardOptions): Promise<VettedUrl> {
  const parsed = URL.canParse(String(url)) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new SourceUnreachableError('invalid-url', 'The source URL must be an absolute http or https URL.');
  }
  // URL keeps IPv6 literals bracketed; the resolver wants them bare. A literal resolves to
  // itself, so literals and DNS answers meet the same check below.
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const first = assertAllowedAddresses(hostname, await resolveAll(hostname, options.signal), options);
  return { url: parsed, address: first.address, family: first.family === 4 ? 4 : 6 };
}

/**
 * The check on what `hostname` resolved to: every address must be public unless private ones are
 * allowed. Returns the address to connect to.
 */
export function assertAllowedAddresses(
  hostname: string,
  addresses: readonly LookupAddress[],
  options: Pick<UrlGuardOptions, 'allowPrivate'>,
): LookupAddress {
  const first = addresses[0];
  if (!first) throw new SourceUnreachableError('network', `The host ${hostname} has no address.`);
  // Every address, not only the one we connect to: a host that also resolves to an internal
  // address is an attempt to reach it, whichever answer a later resolver would have chosen.
  if (!options.allowPrivate && addresses.some(({ address }) => classifyAddress(address) !== 'public')) {
    throw new SourceUnreachableError(
      'refused-address',
      `The host ${hostname} resolves to a private, loopback or otherwise non-public address.`,
    );
  }
  return first;
}

/** A `lookup` for http(s).request options that answers with the vetted address only. */
export function pinnedLookup({ address, family }: VettedUrl): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (Node's default) the socket asks for every address at once.
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
