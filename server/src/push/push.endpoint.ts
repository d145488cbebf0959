import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { HttpError } from '../http/errors.js';
import { PUSH_ERRORS as E } from './push.errors.js';

/** Addresses a push endpoint may not reach: private, loopback, link-local and the like. */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** Whether an address is private, loopback, link-local, multicast or unspecified (IPv4-mapped IPv6 too). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) return blocked.check(bare, 'ipv6');
  return true;
}

export type Lookup = (host: string) => Promise<string[]>;

const systemLookup: Lookup = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * docs/alerts.md#web-push: a push endpoint must be an https: URL whose host resolves only to public
 * addresses (unless PUSH_ALLOW_PRIVATE_ENDPOINTS, for a push service of one's own in tests).
 * Throws the 400 to answer; resolves with the URL as it will be stored.
 */
export async function checkEndpoint(
  endpoint: string,
  options: { allowPrivate: boolean; lookup?: Lookup },
): Promise<string> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new HttpError(400, E.endpointHttps);
  }
  if (
    url.protocol !== 'https:' ||
    url.hostname === '' ||
    endpoint.length > 2000 ||
    url.username ||
    url.password
  )
    throw new HttpError(400, E.endpointHttps);
  if (options.allowPrivate) return url.toString();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      throw new HttpError(400, E.endpointUnresolved);
    }
  }
  if (addresses.length === 0) throw new HttpError(400, E.endpointUnresolved);
  if (addresses.some(isPrivateAddress)) throw new HttpError(400, E.endpointPrivate);
  return url.toString();
}

/**
 * A lookup for sending that refuses private addresses too: a host that resolved to a public
 * address when it was subscribed may not be pointed inside the network later.
 */
export function publicOnlyLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (
    error: NodeJS.ErrnoException | null,
    address: string | dns.LookupAddress[],
    family?: number,
  ) => void,
) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((entry) => isPrivateAddress(entry.address));
    if (refused || list.length === 0) {
      const denied: NodeJS.ErrnoException = new Error(
        `push endpoint ${hostname} resolves to a private address`,
      );
      denied.code = 'EPRIVATE';
      return callback(denied, '');
    }
    if (options.all) return callback(null, list);
    const first = list[0] as dns.LookupAddress;
    callback(null, first.address, first.family);
  });
}
