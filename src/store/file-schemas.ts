import { z } from 'zod';
import { MESSAGE_KINDS } from '../mailbox/message.js';

// What each file must hold. A hand-edited file that breaks these is refused with its
// name, before anything is changed.

const text = z.string();
const nullableText = z.string().nullable();

export const taskSchema = z.object({
  id: text,
  title: text,
  description: text,
  status: z.enum(['pending', 'in_progress', 'completed']),
  owner: nullableText,
  assignee: nullableText,
  dependsOn: z.array(text),
  result: nullableText,
  note: nullableText,
  closed: z.boolean(),
  createdBy: text,
  createdAt: text,
  updatedAt: text,
});

export const inboxSchema = z.array(
  z.object({
    id: text,
    from: text,
    to: text,
    content: text,
    sentAt: text,
    fromAgent: z.boolean(),
    broadcast: z.boolean(),
    automatic: z.boolean(),
    readAt: nullableText,
    // A message written before kinds existed is plain text.
    kind: z.enum(MESSAGE_KINDS).default('text'),
    idleReason: z.enum(['available', 'out_of_turns', 'failed', 'shutdown']).optional(),
  }),
);

export const configSchema = z.object({
  name: text,
  teamId: text,
  lead: text,
  members: z.array(text),
  departed: z.array(text).optional(),
  roster: z
    .array(
      z.object({
        name: text,
        role: z.enum(['lead', 'member']),
        description: text,
        model: text,
        mode: text,
        status: z.enum(['active', 'shutdown', 'removed']),
        joinedAt: text,
      }),
    )
    .optional(),
  selfClaim: z.boolean(),
  maxTasks: z.number().int().positive(),
  runId: nullableText,
  createdAt: text,
  updatedAt: text,
});

// Any exact whole number: the rules keep chosen task-N ids to N ≤ 1,000,000,000 and
// never generate past Number.MAX_SAFE_INTEGER, so every watermark they make reads back.
export const highWatermarkSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const count = z.number().int().nonnegative();

// The stamp's records (`files`, `log`) are what the store knows must be on disk; a stamp of
// an earlier version has none, and the first commit of this one writes them.
export const versionSchema = z.object({
  /** Changes when the stamp is rebuilt or the change log emptied, so that every cache reloads. */
  epoch: text,
  version: count,
  eventSeq: count,
  /** The run whose log `eventSeq` counts, and that log's length in bytes after the commit. */
  log: z.object({ runId: text, bytes: count }).optional(),
  /** The task ids and inbox agents that have a file after the commit. */
  files: z.object({ tasks: z.array(text), inboxes: z.array(text) }).optional(),
});
export type VersionStamp = z.infer<typeof versionSchema>;
export type FileRecord = NonNullable<VersionStamp['files']>;

export const journalSchema = z.object({
  files: z.array(z.object({ path: text, content: nullableText })),
  log: z.object({ path: text, lines: z.array(z.object({ seq: z.number().int(), line: text })) }).nullable(),
  /** The stamp the commit ends with (absent from an earlier version's journal). */
  stamp: versionSchema.optional(),
});
export type Journal = z.infer<typeof journalSchema>;

export const runRecordSchema = z.object({
  runId: text,
  team: text,
  teamId: text,
  startedAt: text,
  runner: z.object({ pid: z.number().int(), host: text }).optional(),
});
