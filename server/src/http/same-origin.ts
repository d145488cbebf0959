import type { FastifyRequest } from 'fastify';

/** Methods that change nothing: a cookie may sign them in from anywhere (SameSite still applies). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** What the check reads of a request. */
export type OwnPageRequest = Pick<FastifyRequest, 'method' | 'headers' | 'protocol' | 'host'>;

/**
 * Whether a request that a cookie signs in comes from Hearth's own page (docs/api.md#authentication).
 * SameSite=Strict does not keep out another port of the same host or a sibling subdomain (issue 32
 * item 11), so a request that changes something needs the browser's word that it is same-origin:
 *
 * - `Sec-Fetch-Site`, when the browser sends it (every current browser, to https and localhost),
 *   must be `same-origin`: the browser's own verdict, whatever address the person used;
 * - else `Origin` (sent on every non-GET request by the browsers that lack Sec-Fetch-Site, and by
 *   all of them to plain-http addresses outside localhost) must be PUBLIC_URL's origin or the
 *   origin the request was addressed to (its scheme and Host, as the proxy passes them on when
 *   TRUST_PROXY is set): the same two the device stream's upgrade accepts;
 * - with neither header it is no browser page: refused (a script sends the access token as Bearer).
 */
export function fromOwnPage(request: OwnPageRequest, publicOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const actual = originOf(origin);
  if (!actual || actual === 'null') return false;
  return actual === publicOrigin || actual === originOf(`${request.protocol}://${request.host}`);
}
