import type { DeletedTask } from '../board/delete.js';
import type { TeamTask } from '../board/task.js';
import { cutTo, LIMITS } from '../events/limits.js';
import type { IdleReason, MessageKind } from './message.js';
import type { TeamMailbox } from './team-mailbox.js';

/**
 * Kinds the harness sends to inform, which wake nobody on their own: the reader gets them
 * with its next turn (or from `read_inbox`), so a lead is not spent on every teammate's idle.
 */
export const QUIET_KINDS: ReadonlySet<MessageKind> = new Set([
  'idle_notification',
  'shutdown_response',
  'task_notification',
]);

/** Sends a harness notice, unless the reader's inbox is full (the log has the change anyway). */
function notify(
  mailbox: TeamMailbox,
  from: string,
  to: string,
  content: string,
  kind: MessageKind,
  idleReason?: IdleReason,
): void {
  if (!mailbox.hasRoom(to)) return;
  mailbox.send(from, to, cutTo(content, LIMITS.message), { automatic: true, kind, idleReason });
}

/** The lead gave a task to another member: both are told (`task_notification`). */
export function notifyReassigned(mailbox: TeamMailbox, lead: string, task: TeamTask, previous: string): void {
  const to = task.assignee ?? 'nobody';
  notify(
    mailbox,
    lead,
    previous,
    `${task.id} ("${task.title}") was reassigned from you to ${to}.`,
    'task_notification',
  );
  if (task.assignee) {
    notify(
      mailbox,
      lead,
      task.assignee,
      `${task.id} ("${task.title}") was reassigned to you from ${previous}.`,
      'task_notification',
    );
  }
}

/** A task was taken back from the member it was given to (or that held it): it is told it is no longer its to do. */
export function notifyReleased(mailbox: TeamMailbox, by: string, task: TeamTask, previous: string): void {
  notify(
    mailbox,
    by,
    previous,
    `${by} took ${task.id} ("${task.title}") back from you: it is on the list for anyone again, no longer yours to do.`,
    'task_notification',
  );
}

/**
 * A task was deleted: each member a task that waited for it is given to is told that task
 * waits for it no more; the member it was given to, that it is gone; the lead, when someone
 * else deleted it (the person, or the task's creator). All `task_notification`, naming the
 * task and the reason; only agents in `reachable` (those on the team now) are written to.
 */
export function notifyDeleted(
  mailbox: TeamMailbox,
  by: string,
  { task, dependents }: DeletedTask,
  reachable: readonly string[],
): void {
  const named = `${task.id} ("${task.title}")`;
  const deleted = `${by} deleted ${named}: ${task.note ?? ''}`;
  const told = new Map<string, string[]>();
  const tell = (to: string | null, line: string) => {
    if (to === null || to === by || !reachable.includes(to)) return;
    told.set(to, [...(told.get(to) ?? [deleted]), line]);
  };
  tell(task.owner ?? task.assignee, 'It was given to you: it is not to be done.');
  for (const dependent of dependents) {
    tell(
      dependent.owner ?? dependent.assignee,
      `${dependent.id} ("${dependent.title}"), given to you, no longer waits for it.`,
    );
  }
  const freed = dependents.map((dependent) => dependent.id);
  tell(
    mailbox.roster.lead,
    freed.length ? `Tasks that waited for it no longer do: ${freed.join(', ')}.` : 'No task waited for it.',
  );
  for (const [to, lines] of told) notify(mailbox, by, to, lines.join('\n'), 'task_notification');
}

const IDLE_LABELS: Record<IdleReason, string> = {
  available: 'available: it has no task and nothing it can take',
  out_of_turns: 'out of turns: its tasks went back to the list',
  failed: 'failed: its tasks went back to the list',
  shutdown: 'shut down: its tasks went back to the list',
};

/**
 * Tells the lead a member went idle, and why, with what its last turn gave: never a notice
 * that carries nothing (a turn without a reply says so, and names its task).
 */
export function notifyIdle(
  mailbox: TeamMailbox,
  member: string,
  why: IdleReason,
  last: { readonly output: string; readonly task: TeamTask | undefined },
): void {
  const lines = [`${member} is ${IDLE_LABELS[why]}.`];
  if (last.task) lines.push(`Its last task: ${last.task.id} ("${last.task.title}"), ${last.task.status}.`);
  lines.push(last.output ? `Its last reply:\n${last.output}` : 'Its last turn ended without a reply.');
  notify(mailbox, member, mailbox.roster.lead, lines.join('\n'), 'idle_notification', why);
}
