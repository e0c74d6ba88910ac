import { ApiError } from './api-error.js';

// The bodies the API takes. Each is checked whole before anything is done: a body that is
// not JSON, misses a field, has one of the wrong type or one the route does not know is a
// 400 that says which, and changes nothing.

type Field = 'text' | 'optional text';

async function jsonOf(request: Request, route: string): Promise<Record<string, unknown>> {
  const raw = await request.text();
  if (!raw.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ApiError(400, `${route} takes a JSON object; the body is not JSON.`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(400, `${route} takes a JSON object.`);
  return body as Record<string, unknown>;
}

async function read<K extends string>(
  request: Request,
  route: string,
  fields: Record<K, Field>,
): Promise<Record<K, string>> {
  const body = await jsonOf(request, route);
  const names = Object.keys(fields) as K[];
  const shape = `{ ${names.map((name) => (fields[name] === 'text' ? name : `${name}?`)).join(', ')} }`;
  for (const key of Object.keys(body)) {
    if (!names.includes(key as K))
      throw new ApiError(400, `${route} takes ${shape}; it does not know "${key}".`);
  }
  for (const name of names) {
    const value = body[name];
    if (value === undefined && fields[name] === 'optional text') continue;
    if (typeof value !== 'string' || !value.trim())
      throw new ApiError(400, `${route} takes ${shape}: ${name} must be a non-empty string.`);
  }
  return body as Record<K, string>;
}

/** `POST /api/runs`: which of the file's teams, and the request for its lead. */
export const startBody = (request: Request) =>
  read(request, 'POST /api/runs', { team: 'text', input: 'text' });

/** `POST /api/runs/:runId/messages`: an agent (or lead, or everyone) and what to tell it. */
export const messageBody = (request: Request) =>
  read(request, 'POST /api/runs/:runId/messages', { to: 'text', content: 'text' });

/** `POST /api/runs/:runId/abort`: an optional reason. */
export const abortBody = (request: Request) =>
  read(request, 'POST /api/runs/:runId/abort', { reason: 'optional text' });
