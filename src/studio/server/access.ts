import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { ApiError, unauthorized } from './api-error.js';

/** The header the page sends its CSRF token in, on every change it asks for (`X-Studio-CSRF`). */
const CSRF_HEADER = 'x-studio-csrf';
/** The page's session cookie; scoped to the page's path, so one name serves every Studio. */
const COOKIE = 'agent-teams-studio';
/** How many sessions a launch keeps (each opening of the printed URL is one): the oldest goes first. */
const MAX_SESSIONS = 100;
/** The methods that change something; every other one only reads. */
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A new secret for one launch of the Studio: 32 random bytes, URL-safe. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function same(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Who sent a request: a holder of the launch's token (a script, the printed URL), or a session of the page. */
export type Caller = { readonly kind: 'token' } | { readonly kind: 'session'; readonly id: string };

/** What the Studio's middleware tells its routes. */
export interface StudioEnv {
  Variables: { caller: Caller };
}

/**
 * One launch's ways in. The token is printed in the URL and sent by scripts; opening the URL
 * trades it for a session: a random id in an HttpOnly, SameSite=Strict cookie whose path is
 * the page's own, random for the launch. Cookies are not kept apart by port, so a cookie for
 * `/` would reach every server on 127.0.0.1; one for a path no other server knows reaches
 * none of them. The page sends its CSRF token (in its HTML) with every change it asks for.
 */
export class StudioAccess {
  readonly token = newToken();
  readonly csrf = newToken();
  /** Where the page lives, and the session cookie with it. */
  readonly pagePath = `/studio/${randomBytes(16).toString('base64url')}`;
  readonly #sessions = new Set<string>();

  /** The request's caller: its token (`?token=`, `Authorization: Bearer`) first, else its session cookie. */
  callerOf(c: Context): Caller | undefined {
    const bearer = c.req.header('authorization')?.match(/^Bearer (.+)$/)?.[1];
    if (same(c.req.query('token'), this.token) || same(bearer, this.token)) return { kind: 'token' };
    const id = getCookie(c, COOKIE);
    return id !== undefined && this.#sessions.has(id) ? { kind: 'session', id } : undefined;
  }

  /** Answers with a new session's cookie and sends the browser to the page: the token leaves the address. */
  openPage(c: Context): Response {
    const id = newToken();
    this.#sessions.add(id);
    if (this.#sessions.size > MAX_SESSIONS)
      this.#sessions.delete(this.#sessions.values().next().value as string);
    setCookie(c, COOKIE, id, { httpOnly: true, sameSite: 'Strict', path: this.pagePath });
    return c.redirect(`${this.pagePath}/`, 303);
  }
}

/**
 * Lets through only requests of the launch's token or one of its sessions; anything else is
 * a bare 401. A change asked for with a session (a page's cookie) must also carry the page's
 * Origin and its CSRF header, which no page of another origin can send: the cookie is sent
 * whoever asks, the header only by the page that read it.
 */
export function authenticate(access: StudioAccess): MiddlewareHandler<StudioEnv> {
  return async (c, next) => {
    const caller = access.callerOf(c);
    if (!caller) throw unauthorized();
    if (caller.kind === 'session' && CHANGES.has(c.req.method)) {
      // Its value was checked before (refuseForeign); here it must be there at all.
      if (c.req.header('origin') === undefined)
        throw new ApiError(403, 'Refused: a change asked for with the page’s cookie must carry its Origin.');
      if (!same(c.req.header(CSRF_HEADER), access.csrf))
        throw new ApiError(
          403,
          'Refused: a change asked for with the page’s cookie must carry its X-Studio-CSRF header.',
        );
    }
    c.set('caller', caller);
    await next();
  };
}
