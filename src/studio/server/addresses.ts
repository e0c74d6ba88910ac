import os from 'node:os';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** `host` as it appears in a Host header or an origin: IPv6 in brackets, lower case. */
function named(host: string): string {
  const lower = host.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/**
 * The names the Studio answers to: the loopback names and the `--host` it listens on, each
 * with its port; listening on every interface (`0.0.0.0`, `::`), also this machine's own
 * addresses, which is how other machines reach it. Never a DNS name it was not given: a page
 * of `evil.example` whose name was rebound to 127.0.0.1 still says `Host: evil.example`.
 */
export function studioHosts(listenHost: string, port: number): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', named(listenHost)]);
  if (WILDCARDS.has(listenHost)) {
    for (const address of Object.values(os.networkInterfaces()).flat()) {
      // A link-local IPv6 address needs its zone, which a Host header cannot carry.
      if (address && !address.address.includes('%')) names.add(named(address.address));
    }
  }
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    // A browser leaves the default port out of the Host header and the origin.
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/**
 * Refuses, before anything else is done, a request for another host (DNS rebinding) and one
 * that a page of another origin sent (its `Origin` header: any other port of 127.0.0.1 is
 * another origin, although its cookies are the Studio's too). A request without `Origin`
 * (a script, or the page's own reads) is for the token check to judge. 403, with the reason.
 */
export function refuseForeign(hosts: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const own = hosts();
    const host = c.req.header('host')?.toLowerCase();
    if (host === undefined || !own.has(host)) {
      throw new ApiError(403, `Refused: the Studio does not answer to the host "${host ?? ''}".`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !isOwnOrigin(origin, own)) {
      throw new ApiError(403, `Refused: a page of ${origin} may not call the Studio.`);
    }
    await next();
  };
}

function isOwnOrigin(origin: string, hosts: ReadonlySet<string>): boolean {
  const match = origin.toLowerCase().match(/^http:\/\/([^/]+)$/);
  return match !== null && hosts.has(match[1] as string);
}
