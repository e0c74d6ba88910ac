import type { MemberStatus } from '../events/team-event-map.js';
import { cutTo, LIMITS } from '../state/limits.js';
import type { TeamRules } from '../store/team-store.js';
import type { TurnDescriptor } from './descriptor.js';
import type { TurnOutcome } from './turn-outcome.js';

export interface TurnEnd {
  readonly turn: TurnDescriptor;
  readonly outcome: TurnOutcome;
  /** The agent's status after the turn. */
  readonly status: MemberStatus;
  /** The agents the turn messaged itself (from the run's `team:message-sent` events). */
  readonly answered: ReadonlySet<string>;
  /** The agent waits on a request it opened: the harness neither completes its task nor replies for it. */
  readonly waiting?: boolean;
}

/**
 * Closes a turn in one commit: the messages it was given are marked read (its descriptor's
 * and those `read_inbox` gave it; none after an abort); the harness
 * fallback completes the turn's own task with the member's final reply while the member
 * still holds it (cut to the result's limit with a marked note; or gives it back when there is
 * no reply; a task claimed later in the turn
 * stays with the member for its next turn); a member that failed or is out of turns gives
 * its tasks back; an agent woken by messages it did not answer has its reply sent to their
 * senders, marked automatic (and automatic messages never get one, so agents cannot
 * ping-pong); then the turn's usage and end are emitted.
 */
export function endTurn({ board, mailbox, emit }: TeamRules, end: TurnEnd): void {
  const { turn, outcome } = end;
  const name = turn.agent;
  // A turn cut short by an abort handled nothing: its messages stay unread for the resume.
  if (outcome.kind !== 'aborted') {
    const unread = new Set(outcome.unread);
    const given = turn.messageIds.filter((id) => !unread.has(id));
    mailbox.markRead(name, [...given, ...outcome.delivered]);
  }
  const text = outcome.kind === 'done' ? outcome.text : undefined;
  if (turn.role === 'member') {
    const held = !end.waiting && turn.taskId !== null && board.heldBy(name)?.id === turn.taskId;
    if (text !== undefined && turn.taskId !== null && held) {
      if (text)
        board.updateTask(turn.taskId, { status: 'completed', result: cutTo(text, LIMITS.taskText) }, name);
      else
        board.updateTask(
          turn.taskId,
          { status: 'pending', note: `${name} ended its turn without a result` },
          name,
        );
    }
    if (end.status === 'failed' || end.status === 'stopped') board.releaseMember(name, name);
  }
  if (text && turn.reason === 'message' && !end.waiting) {
    const given = new Set(turn.messageIds);
    const senders = mailbox
      .messages(name)
      .filter((message) => given.has(message.id) && message.fromAgent && !message.automatic)
      .map((message) => message.from)
      .filter((sender) => !end.answered.has(sender));
    // A full inbox gets no automatic reply: the reply is in the turn's end all the same.
    for (const sender of new Set(senders)) {
      if (mailbox.hasRoom(sender))
        mailbox.send(name, sender, cutTo(text, LIMITS.message), { automatic: true });
    }
  }
  if (outcome.kind === 'done') {
    emit({
      type: 'team:turn-usage',
      data: { member: name, role: turn.role, turn: turn.turn, model: outcome.model, usage: outcome.usage },
    });
  }
  emit({
    type: 'team:member-finished',
    data: {
      member: name,
      role: turn.role,
      turn: turn.turn,
      reason: turn.reason,
      status: end.status,
      output: text ?? '',
      error: outcome.kind === 'failed' ? outcome.error : null,
    },
  });
}
