import { jsonSchema, type Schema, zodSchema } from 'ai';
import type { z } from 'zod';
import { shown } from '../errors/check-options.js';

// A model reads the reason and calls again, so one bad call gets a short reason naming
// each bad field (the first few), never zod's whole report.
const ISSUES_SHOWN = 3;

/** What a value is, as a reason says it: `null`, `a list`, `a number`, … */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

function article(expected: string): string {
  return expected === 'array' ? 'a list' : `a ${expected}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index > 0 ? '.' : ''}${String(key)}`))
    .join('');
}

function issueReason(issue: z.core.$ZodIssue, input: unknown, known: readonly string[]): string {
  const field = fieldName(issue.path);
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return `there is no parameter ${issue.keys.map((key) => shown(key, 40)).join(', ')} (${known.length > 0 ? `the parameters are ${known.join(', ')}` : 'it takes none'})`;
    case 'invalid_type':
      if (value === undefined) return `${field} is required (${article(issue.expected)})`;
      return `${field} must be ${article(issue.expected)}, not ${kindOf(value)}`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((option) => shown(option)).join(', ')}, not ${shown(value, 40)}`;
    default:
      return `${field || 'the input'}: ${issue.message}`;
  }
}

/**
 * A tool's input checked against its schema: the parsed value, or the reason it is bad,
 * naming the tool and each bad field (`update_task: taskId must be a string, not null.`).
 * Tools check here as well as in the AI SDK's loop, because a tool's `execute` can be
 * called directly, with anything.
 */
export function parseToolInput<T extends z.ZodObject>(
  tool: string,
  schema: T,
  input: unknown,
): { success: true; data: z.output<T> } | { success: false; error: string } {
  const known = Object.keys(schema.shape);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const takes = known.length > 0 ? `an object of parameters (${known.join(', ')})` : 'an object, {}';
    return { success: false, error: `${tool} takes ${takes}, not ${kindOf(input)}.` };
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  const reasons = parsed.error.issues.slice(0, ISSUES_SHOWN).map((issue) => issueReason(issue, input, known));
  return { success: false, error: `${tool}: ${reasons.join('; ')}.` };
}

/**
 * A tool's input schema for the AI SDK: the JSON Schema of `fields` for the model, with
 * no check of its own. The tool checks its input itself (`parseToolInput`), so a model
 * that sends a bad call gets the same short `{ success: false, error }` as any caller,
 * rather than the SDK's dump of the whole value and zod's report.
 */
export function toolInputSchema<T extends z.ZodObject>(fields: T): Schema<z.output<T>> {
  // One per fields, so its JSON Schema is worked out once, whoever makes the tool and how often.
  let schema = made.get(fields);
  if (!schema) {
    const described = zodSchema(fields);
    schema = jsonSchema(() => forModel(described.jsonSchema), {
      validate: (value) => ({ success: true, value }),
    });
    made.set(fields, schema);
  }
  return schema as Schema<z.output<T>>;
}

const made = new WeakMap<z.ZodObject, Schema>();

/**
 * The JSON Schema without what tells the model nothing and costs tokens on every call:
 * `$schema`, and the safe-integer bounds zod gives every `int()`. The tool's own check
 * (`parseToolInput`) still applies them.
 */
function forModel(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forModel);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    kept[key] = forModel(value);
  }
  return kept;
}
