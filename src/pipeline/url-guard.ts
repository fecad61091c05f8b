/**
 * SSRF guard for client-supplied source URLs (`context.url`): only http(s), and only hosts whose
 * every address is public unless private addresses are explicitly allowed (dev and tests). The
 * address that passed the check is the one connected to, so a second DNS answer (rebinding)
 * cannot redirect the request to an internal host after the check.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIPv4, type LookupFunction } from 'node:net';
import { UnprocessableError } from '../http/problem.js';

export type SourceFailureReason =
  | 'invalid-url'
  | 'refused-address'
  | 'timeout'
  | 'network'
  | 'too-many-redirects'
  | `http-${number}`;

/** A source URL that cannot be used; answered with 422 and the reason in the problem body. */
export class SourceUnreachableError extends UnprocessableError {
  constructor(
    readonly reason: SourceFailureReason,
    detail: string,
    options: { cause?: unknown } = {},
  ) {
    super(detail, { extensions: { reason } });
    if (options.cause !== undefined) this.cause = options.cause;
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

/** Every range that must not be reachable from a client-supplied URL, by why it is refused. */
const refusedRanges: ReadonlyArray<readonly [Exclude<AddressClass, 'public'>, Family, string, number]> = [
  ['unspecified', 'ipv4', '0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['loopback', 'ipv6', '::1', 128],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['private', 'ipv6', 'fc00::', 7],
  ['shared', 'ipv4', '100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['link-local', 'ipv4', '169.254.0.0', 16], // includes cloud metadata endpoints
  ['link-local', 'ipv6', 'fe80::', 10],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['multicast', 'ipv6', 'ff00::', 8],
  ['reserved', 'ipv4', '192.0.0.0', 24], // IETF protocol assignments
  ['reserved', 'ipv4', '192.0.2.0', 24], // documentation
  ['reserved', 'ipv4', '198.18.0.0', 15], // benchmarking
  ['reserved', 'ipv4', '198.51.100.0', 24], // documentation
  ['reserved', 'ipv4', '203.0.113.0', 24], // documentation
  ['reserved', 'ipv4', '240.0.0.0', 4], // future use and the broadcast address
  ['reserved', 'ipv6', '100::', 64], // discard
  ['reserved', 'ipv6', '2001:db8::', 32], // documentation
  ['reserved', 'ipv6', 'fec0::', 10], // deprecated site-local, still routed internally by some networks
];

const blockLists = new Map<Exclude<AddressClass, 'public'>, BlockList>();
for (const [addressClass, family, network, prefix] of refusedRanges) {
  const list = blockLists.get(addressClass) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  blockLists.set(addressClass, list);
}

/** IPv6 prefixes whose last 32 bits are an IPv4 address the packet ends up at. */
const ipv4Embedding = new BlockList();
ipv4Embedding.addSubnet('::ffff:0:0', 96, 'ipv6'); // IPv4-mapped
ipv4Embedding.addSubnet('64:ff9b::', 96, 'ipv6'); // NAT64 well-known prefix

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  const hex = dotted
    ? address.slice(0, -dotted.length) + ipv4ToGroups(dotted).map((g) => g.toString(16)).join(':')
    : address;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const headGroups = parse(head);
  if (tail === undefined) return headGroups;
  const tailGroups = parse(tail);
  return [...headGroups, ...new Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

function ipv4ToGroups(address: string): [number, number] {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

function embeddedIpv4(address: string): string | undefined {
  if (!ipv4Embedding.check(address, 'ipv6')) return undefined;
  const groups = ipv6Groups(address);
  const high = groups[6] ?? 0;
  const low = groups[7] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** What kind of address an IP literal is; anything but `public` is refused for source URLs. */
export function classifyAddress(literal: string): AddressClass {
  // A zone id (fe80::1%eth0) names the interface, not the address.
  const address = literal.split('%')[0] ?? literal;
  const family: Family = isIPv4(address) ? 'ipv4' : 'ipv6';
  if (family === 'ipv6') {
    const ipv4 = embeddedIpv4(address);
    if (ipv4 !== undefined) return classifyAddress(ipv4);
  }
  for (const [addressClass, list] of blockLists) {
    if (list.check(address, family)) return addressClass;
  }
  return 'public';
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
  // URL keeps IPv6 literals bracketed; the resolver wants them bare.
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = await resolveAll(hostname, options.signal);
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
  return { url: parsed, address: first.address, family: first.family === 4 ? 4 : 6 };
}

/** A `lookup` for http(s).request options that answers with the vetted address only. */
export function pinnedLookup({ address, family }: VettedUrl): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (Node's default) the socket asks for every address at once.
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
