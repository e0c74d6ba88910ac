import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** A new token for one launch of the Studio: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function same(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Lets through only requests that carry the launch's token: as `?token=` (the URL the
 * command prints, and the page's EventSource), as `Authorization: Bearer …` (scripts), or
 * as the cookie the first of those sets so the page's own files load. Anything else gets
 * a bare 401: no page, no data, not even which routes exist.
 */
export function requireToken(token: string, port: () => number): MiddlewareHandler {
  return async (c, next) => {
    // One cookie per port: two Studios on one host keep their own tokens.
    const cookie = `agent-teams-studio-${port()}`;
    const query = c.req.query('token');
    const bearer = c.req.header('authorization')?.match(/^Bearer (.+)$/)?.[1];
    if (same(query, token) || same(bearer, token)) {
      setCookie(c, cookie, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
    } else if (!same(getCookie(c, cookie), token)) {
      return c.body(null, 401);
    }
    await next();
  };
}
