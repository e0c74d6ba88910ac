import { MESSAGE_KINDS } from '../../mailbox/message.js';
import {
  bool,
  type Infer,
  list,
  nullable,
  oneOf,
  optional,
  record,
  text,
  whole,
  withDefault,
} from './file-validate.js';

// What each file must hold. A hand-edited file that breaks these is refused with its
// name, before anything is changed.

const nullableText = nullable(text);

export const taskSchema = record({
  id: text,
  title: text,
  description: text,
  status: oneOf(['pending', 'in_progress', 'completed', 'deleted']),
  owner: nullableText,
  assignee: nullableText,
  dependsOn: list(text),
  result: nullableText,
  note: nullableText,
  closed: bool,
  createdBy: text,
  createdAt: text,
  updatedAt: text,
});

export const inboxSchema = list(
  record({
    id: text,
    from: text,
    to: text,
    content: text,
    sentAt: text,
    fromAgent: bool,
    broadcast: bool,
    automatic: bool,
    readAt: nullableText,
    // A message written before kinds existed is plain text.
    kind: withDefault(oneOf(MESSAGE_KINDS), 'text'),
    idleReason: optional(oneOf(['available', 'out_of_turns', 'failed', 'shutdown'])),
    effect: optional(text),
  }),
);

export const configSchema = record({
  name: text,
  teamId: text,
  lead: text,
  // Written before rosters had profiles: the names alone (read into a roster).
  members: optional(list(text)),
  departed: optional(list(text)),
  roster: optional(
    list(
      record({
        name: text,
        role: oneOf(['lead', 'member']),
        description: text,
        model: text,
        mode: text,
        status: oneOf(['active', 'shutdown', 'removed']),
        joinedAt: text,
      }),
    ),
  ),
  selfClaim: bool,
  maxTasks: whole(1),
  // Written before teams had a bound on their members: none.
  maxMembers: withDefault(nullable(whole(1)), null),
  // Written before the person's tasks were judged by the team's hook: not judged.
  judgesTasks: withDefault(bool, false),
  runId: nullableText,
  createdAt: text,
  updatedAt: text,
});

// Any exact whole number: the rules keep chosen task-N ids to N ≤ 1,000,000,000 and
// never generate past Number.MAX_SAFE_INTEGER, so every watermark they make reads back.
export const highWatermarkSchema = whole(0);

const count = whole(0);

// The stamp's records (`files`, `log`) are what the store knows must be on disk; a stamp of
// an earlier version has none, and the first commit of this one writes them.
const versionShape = {
  /** Changes when the stamp is rebuilt or the change log emptied, so that every cache reloads. */
  epoch: text,
  version: count,
  eventSeq: count,
  /** The run whose log `eventSeq` counts, and that log's length in bytes after the commit. */
  log: optional(record({ runId: text, bytes: count })),
  /** The task ids and inbox agents that have a file after the commit. */
  files: optional(record({ tasks: list(text), inboxes: list(text) })),
};
export const versionSchema = record(versionShape);
export type VersionStamp = Infer<typeof versionShape>;
export type FileRecord = NonNullable<VersionStamp['files']>;

const journalShape = {
  files: list(record({ path: text, content: nullableText })),
  log: nullable(record({ path: text, lines: list(record({ seq: whole(), line: text })) })),
  /** The stamp the commit ends with (absent from an earlier version's journal). */
  stamp: optional(versionSchema),
};
export const journalSchema = record(journalShape);
export type Journal = Infer<typeof journalShape>;

export const requestsSchema = record({
  requests: list(
    record({
      id: text,
      kind: oneOf(['plan', 'permission', 'tool']),
      from: text,
      to: oneOf(['lead', 'user']),
      subject: text,
      taskId: nullableText,
      tool: nullableText,
      path: nullableText,
      timeoutMs: whole(0),
      defaultApprove: bool,
      openedAt: whole(0),
      openedInTurn: nullable(whole(0)),
      status: oneOf(['open', 'answered', 'expired']),
      approve: nullable(bool),
      feedback: text,
      by: nullableText,
      input: optional(nullableText),
      ran: optional(nullable(record({ turn: whole(0), output: text }))),
    }),
  ),
  grants: list(record({ member: text, pattern: text, tool: oneOf(['write_file', 'edit_file', '*']) })),
  toolGrants: optional(list(record({ member: text, tool: text }))),
});

export const runRecordSchema = record({
  runId: text,
  team: text,
  teamId: text,
  startedAt: text,
  runner: optional(
    record({
      pid: whole(),
      host: text,
      machine: optional(text),
      token: optional(text),
      renewedAt: optional(text),
    }),
  ),
});
