import type { z } from 'zod';
import { parseToolInput } from './tool-input.js';

type Answer = ({ success: true } & Record<string, unknown>) | { success: false; error: string };

// A reason is for reading: one that echoes a huge bad input is cut, not sent whole.
const MAX_ERROR_LENGTH = 1_000;

function failure(error: string): { success: false; error: string } {
  return {
    success: false,
    error: error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH - 1)}…` : error,
  };
}

/**
 * Runs one call of a governance tool (it may do file I/O or await a classifier, so it is not
 * one transaction like the team tools): checks the input against the schema, then answers
 * `{ success: true, ... }`, what `fn` answers when it is a failure already, or
 * `{ success: false, error }` with the reason of anything thrown. It never throws into the model loop.
 */
export async function governed<T extends z.ZodObject>(
  tool: string,
  schema: T,
  input: unknown,
  fn: (input: z.output<T>) => Promise<Record<string, unknown>>,
): Promise<Answer> {
  const parsed = parseToolInput(tool, schema, input);
  if (!parsed.success) return failure(parsed.error);
  try {
    const result = await fn(parsed.data);
    if (result.success === false) return failure(String(result.error));
    return { success: true, ...result };
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
}
