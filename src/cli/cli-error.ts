/** An error the command reports as one line, with the exit code it ends with. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

interface ApiCallErrorLike {
  name: string;
  message: string;
  url?: string;
  statusCode?: number;
  responseBody?: string;
}

/** The AI SDK's APICallError somewhere in an error's causes, if there is one. */
function apiCallError(error: unknown, depth = 0): ApiCallErrorLike | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const candidate = error as ApiCallErrorLike & { cause?: unknown; lastError?: unknown; errors?: unknown[] };
  if (candidate.name === 'AI_APICallError' && typeof candidate.url === 'string') return candidate;
  for (const inner of [candidate.lastError, candidate.cause, ...(candidate.errors ?? [])]) {
    const found = apiCallError(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The one line a newcomer reads for an error: what went wrong and what to do, never a
 * stack trace. A model server that cannot be reached, or that refuses, is named by URL.
 */
export function describeError(error: unknown): string {
  const api = apiCallError(error);
  if (api?.url) {
    if (api.statusCode === undefined) return `cannot reach the model server at ${api.url}: ${api.message}`;
    const body = api.responseBody ? `: ${api.responseBody.slice(0, 200)}` : '';
    return `the model server at ${api.url} answered ${api.statusCode}${body}`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
