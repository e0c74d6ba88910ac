import { ApiError } from './api-error.js';

// The bodies the API takes. Each is checked whole before anything is done: a body that is
// not JSON, misses a field, has one of the wrong type or one the route does not know is a
// 400 that says which, and changes nothing.

type Field = 'text' | 'optional text' | 'yes or no' | 'optional yes or no';
type ValueOf<F extends Field> = F extends 'text' | 'optional text' ? string : boolean;

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

const optional = (field: Field) => field.startsWith('optional');

async function read<F extends Record<string, Field>>(
  request: Request,
  route: string,
  fields: F,
): Promise<{ [K in keyof F]: ValueOf<F[K]> }> {
  const body = await jsonOf(request, route);
  const names = Object.keys(fields);
  const shape = `{ ${names.map((name) => (optional(fields[name] as Field) ? `${name}?` : name)).join(', ')} }`;
  for (const key of Object.keys(body)) {
    if (!names.includes(key)) throw new ApiError(400, `${route} takes ${shape}; it does not know "${key}".`);
  }
  for (const name of names) {
    const field = fields[name] as Field;
    const value = body[name];
    if (value === undefined && optional(field)) continue;
    if (field.endsWith('yes or no')) {
      if (typeof value !== 'boolean')
        throw new ApiError(400, `${route} takes ${shape}: ${name} must be true or false.`);
    } else if (typeof value !== 'string' || !value.trim())
      throw new ApiError(400, `${route} takes ${shape}: ${name} must be a non-empty string.`);
  }
  return body as { [K in keyof F]: ValueOf<F[K]> };
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

/** `POST /api/runs/:runId/requests/:requestId`: the person's answer, with optional feedback. */
export const answerBody = (request: Request) =>
  read(request, 'POST /api/runs/:runId/requests/:requestId', {
    approve: 'yes or no',
    feedback: 'optional text',
  });

/** `POST /api/runs/:runId/shutdown`: which member, and whether to stop its turn at once. */
export const shutdownBody = (request: Request) =>
  read(request, 'POST /api/runs/:runId/shutdown', { member: 'text', force: 'optional yes or no' });
