import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Whether the hop at `address` (the `hop`-th from the socket) is a proxy to trust. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as a trust function, the one Fastify and the device stream's upgrade both use, so a
 * client has the same address in rate limits and the activity log whichever way it comes in.
 * `true` trusts every hop; a list of addresses, CIDRs or proxy-addr's names trusts those. Fastify
 * would hand the word "true" to proxy-addr as an address, which refuses it at start.
 */
export function proxyTrust(value: string | undefined): ProxyTrust | false {
  if (value === undefined) return false;
  if (value.trim() === 'true') return () => true;
  return proxyAddr.compile(value.split(',').map((part) => part.trim()));
}

/** The client's address of a raw request (an upgrade's), as Fastify's `request.ip` gives it. */
export function clientAddressOf(trust: ProxyTrust | false): (request: IncomingMessage) => string {
  if (!trust) return (request) => request.socket.remoteAddress ?? '';
  return (request) => proxyAddr(request, trust);
}
