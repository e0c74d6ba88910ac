import { z } from 'zod';
import { ApiError } from './api-error.js';

// The bodies the API takes. Each is checked whole before anything is done: a body that is
// too large, is not JSON, misses a field, has one of the wrong type or one the route does not
// know is refused with a reason that says which, and changes nothing.

/** The largest body the Studio reads: 1 MB. */
const MAX_BODY_BYTES = 1024 * 1024;

export const text = z
  .string({ error: 'must be a non-empty string' })
  .refine((value) => value.trim() !== '', { error: 'must be a non-empty string' });
const yesOrNo = z.boolean({ error: 'must be true or false' });

/**
 * The body's bytes, refused with 413 as soon as they are known to be more than
 * `MAX_BODY_BYTES`: by `Content-Length` before any is read, and by counting as they come for
 * a body without one (chunked). The rest of a refused body is never read.
 */
async function bytesOf(request: Request, route: string): Promise<Uint8Array> {
  const tooLarge = () => new ApiError(413, `${route} takes a body of at most 1 MB; this one is larger.`);
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

async function jsonOf(request: Request, route: string): Promise<unknown> {
  const raw = new TextDecoder().decode(await bytesOf(request, route));
  if (!raw.trim()) return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError(400, `${route} takes a JSON object; the body is not JSON.`);
  }
}

/** `{ team, input }`, `{ reason? }`: the fields of a body as its refusals name them. */
function shapeOf(schema: z.ZodObject): string {
  const fields = Object.entries(schema.shape).map(([name, field]) =>
    field.isOptional() ? `${name}?` : name,
  );
  return `{ ${fields.join(', ')} }`;
}

/** The body of `request`, checked by `schema`; a 400 with the first thing wrong, unknown fields first. */
export async function read<S extends z.ZodObject>(
  request: Request,
  route: string,
  schema: S,
): Promise<z.infer<S>> {
  const checked = schema.safeParse(await jsonOf(request, route));
  if (checked.success) return checked.data;
  const { issues } = checked.error;
  const shape = shapeOf(schema);
  const unknown = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []));
  if (unknown.length) {
    const names = unknown.map((key) => `"${key}"`).join(', ');
    throw new ApiError(400, `${route} takes ${shape}; it does not know ${names}.`);
  }
  const wrong = issues.find((issue) => issue.path.length > 0);
  if (!wrong) throw new ApiError(400, `${route} takes a JSON object.`);
  throw new ApiError(400, `${route} takes ${shape}: ${wrong.path.join('.')} ${wrong.message}.`);
}

/** `POST /api/runs`: which of the file's teams, and the request for its lead. */
export const startBody = (request: Request) =>
  read(request, 'POST /api/runs', z.strictObject({ team: text, input: text }));

/** `POST /api/runs/:runId/messages`: an agent (or lead, or everyone) and what to tell it. */
export const messageBody = (request: Request) =>
  read(request, 'POST /api/runs/:runId/messages', z.strictObject({ to: text, content: text }));

/** `POST /api/runs/:runId/abort`: an optional reason. */
export const abortBody = (request: Request) =>
  read(request, 'POST /api/runs/:runId/abort', z.strictObject({ reason: text.optional() }));

/** `POST /api/runs/:runId/requests/:requestId`: the person's answer, with optional feedback (and `always`: a standing grant). */
export const answerBody = (request: Request) =>
  read(
    request,
    'POST /api/runs/:runId/requests/:requestId',
    z.strictObject({ approve: yesOrNo, feedback: text.optional(), always: yesOrNo.optional() }),
  );

/** `POST /api/runs/:runId/members`: a member to add to the run, with its instructions (and model, `provider/model`). */
export const memberBody = (request: Request) =>
  read(
    request,
    'POST /api/runs/:runId/members',
    z.strictObject({ name: text, instructions: text, model: text.optional(), description: text.optional() }),
  );

/** `POST /api/runs/:runId/shutdown`: which member, and whether to stop its turn at once. */
/** `POST /api/runs/:runId/interrupt`: the member whose turn stops, and the message its next turn starts with. */
export const interruptBody = (request: Request) =>
  read(request, 'POST /api/runs/:runId/interrupt', z.strictObject({ member: text, message: text }));

export const shutdownBody = (request: Request) =>
  read(
    request,
    'POST /api/runs/:runId/shutdown',
    z.strictObject({ member: text, force: yesOrNo.optional() }),
  );

/** `POST /api/runs/:runId/inbox/read`: nothing (an empty object, or no body). */
export const emptyBody = (request: Request, route: string) => read(request, route, z.strictObject({}));
