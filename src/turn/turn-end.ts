import { USER } from '../agent/participants.js';
import { cutTo, LIMITS } from '../events/limits.js';
import type { MemberStatus } from '../events/team-event-map.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { IdleReason, TeamMessage } from '../mailbox/message.js';
import { notifyIdle } from '../mailbox/notices.js';
import type { TeamRules } from '../store/team-store.js';
import type { HookRejection, TurnOutcome } from './turn-outcome.js';

export interface TurnEnd {
  readonly turn: TurnDescriptor;
  readonly outcome: TurnOutcome;
  /** The agent's status after the turn. */
  readonly status: MemberStatus;
  /** The agents the turn messaged itself (from the run's `team:message-sent` events). */
  readonly answered: ReadonlySet<string>;
  /** The agent waits on a request it opened: the harness neither completes its task nor replies for it. */
  readonly waiting?: boolean;
  /** The member told the lead it is idle and took no task since: no second notice. */
  readonly idleNotified: boolean;
  /** The member shuts down with this turn's end: the shutdown tells the lead, not this. */
  readonly departing?: boolean;
}

/**
 * Closes a turn in one commit: the messages it was given are marked read (its descriptor's
 * and those `read_inbox` gave it; none after an abort); the harness
 * fallback completes the turn's own task with the member's final reply while the member
 * still holds it (cut to the result's limit with a marked note; or gives it back when there is
 * no reply; a task claimed later in the turn
 * stays with the member for its next turn); a member that failed or is out of turns gives
 * its tasks back; an agent woken by messages it did not answer has its reply sent to their
 * senders (the person included), marked automatic (and automatic messages never get one, so
 * agents cannot ping-pong); then the turn's end is emitted. (Its usage is not: each of its
 * steps committed its own as it came, see `team:turn-usage`.)
 */
export function endTurn(rules: TeamRules, end: TurnEnd): void {
  const { board, mailbox, emit } = rules;
  const { turn, outcome } = end;
  const name = turn.agent;
  // A turn cut short by an abort handled nothing: its messages stay unread for the resume.
  if (outcome.kind !== 'aborted') {
    const unread = new Set(outcome.unread);
    const given = turn.messageIds.filter((id) => !unread.has(id));
    mailbox.markRead(name, [...given, ...outcome.delivered]);
  }
  const text = outcome.kind === 'done' ? outcome.text : undefined;
  const rejected = outcome.kind === 'done' ? outcome.rejected : undefined;
  // The feedback gives another turn only to a member that has turns left.
  if (rejected) sendBack(rules, name, rejected, end.status === 'idle');
  if (turn.role === 'member') {
    const completing = rejected?.hook !== 'onTaskCompleted';
    const held = !end.waiting && turn.taskId !== null && board.heldBy(name)?.id === turn.taskId;
    if (completing && text !== undefined && turn.taskId !== null && held) {
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
    const goesOn = rejected !== undefined && end.status === 'idle';
    if (outcome.kind !== 'aborted' && !goesOn && !end.departing) tellLeadIfIdle(rules, end);
  }
  if (text && !end.waiting) {
    // A message turn answers what woke it and what came while it ran; any other turn answers
    // the questions that came while it ran (their askers wait for an answer).
    const delivered = new Set(outcome.kind === 'done' ? outcome.delivered : []);
    const woke = new Set(turn.reason === 'message' ? turn.messageIds : []);
    const answers = (message: TeamMessage) =>
      woke.has(message.id) ||
      (delivered.has(message.id) && (turn.reason === 'message' || message.kind === 'question'));
    const senders = mailbox
      .messages(name)
      .filter((message) => answers(message) && repliedTo(message))
      .map((message) => message.from)
      .filter((sender) => !end.answered.has(sender));
    // A full inbox gets no automatic reply: the reply is in the turn's end all the same.
    for (const sender of new Set(senders)) {
      if (mailbox.hasRoom(sender))
        mailbox.send(name, sender, cutTo(text, LIMITS.message), { automatic: true });
    }
  }
  emit({
    type: 'team:member-finished',
    data: {
      member: name,
      role: turn.role,
      turn: turn.turn,
      reason: turn.reason,
      // A member that asked ends its turn waiting for the answer, not idle.
      status: end.waiting && end.status === 'idle' ? 'waiting' : end.status,
      output: text ?? '',
      error: outcome.kind === 'failed' ? outcome.error : null,
      ...(outcome.kind === 'failed' && outcome.fatal ? { fatal: true } : {}),
    },
  });
}

/**
 * Whether a message gets the harness's reply when its reader does not answer: one an agent
 * wrote (never an automatic one, so agents cannot ping-pong), or one the person typed (not
 * the notices the person's side sends: hook feedback, shutdown requests).
 */
function repliedTo(message: TeamMessage): boolean {
  if (message.from === USER) return message.kind === 'text' || message.kind === 'question';
  return message.fromAgent && !message.automatic;
}

/**
 * A hook turned the turn's end down: the member gets the feedback as a message (from the
 * person's side, `user`: the hooks are the team owner's code), which gives it another turn;
 * a rejected completion leaves the task in progress with it. Logged as `team:hook-rejected`.
 */
function sendBack(
  { mailbox, emit }: TeamRules,
  member: string,
  rejected: HookRejection,
  send: boolean,
): void {
  const about =
    rejected.hook === 'onTaskCompleted'
      ? `Your task ${rejected.taskId} was not accepted as complete; it is still yours`
      : 'You are not done yet';
  if (send && mailbox.hasRoom(member)) {
    const content = cutTo(`${about} (${rejected.hook}): ${rejected.feedback}`, LIMITS.message);
    mailbox.send(USER, member, content, { kind: 'status_update' });
  }
  const { hook, feedback, taskId } = rejected;
  emit({ type: 'team:hook-rejected', data: { hook, agent: member, taskId, feedback } });
}

/**
 * Tells the lead when a member goes idle (`idle_notification`): out of turns, failed, or
 * available with nothing left to take and no message to read, once per idle (not again
 * until it takes a task), carrying its last reply.
 */
function tellLeadIfIdle({ board, mailbox }: TeamRules, end: TurnEnd): void {
  const name = end.turn.agent;
  let why: IdleReason | undefined;
  if (end.status === 'stopped') why = 'out_of_turns';
  else if (end.status === 'failed') why = 'failed';
  else if (end.status === 'idle' && !end.idleNotified) {
    const nothingLeft = !board.heldBy(name) && !board.nextClaimable(name) && !mailbox.hasUnread(name);
    if (nothingLeft) why = 'available';
  }
  if (!why) return;
  const output = end.outcome.kind === 'done' ? end.outcome.text : '';
  const task = end.turn.taskId ? board.getTask(end.turn.taskId) : undefined;
  notifyIdle(mailbox, name, why, { output, task });
}
