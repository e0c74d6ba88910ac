import type { TokenUsage } from '../agent/usage.js';
import type { MemberStatus } from '../events/team-event-map.js';
import type { TeamRules } from '../store/team-store.js';
import type { ModelTurnOutcome } from './model-turn.js';
import type { TurnStart } from './turn-start.js';

export interface TurnEnd {
  readonly start: TurnStart;
  /** What the model did; `undefined` when the turn threw or was aborted. */
  readonly outcome: ModelTurnOutcome | undefined;
  readonly usage: TokenUsage | undefined;
  /** The agent's status after the turn. */
  readonly status: MemberStatus;
  /** Why the turn failed, if it did (an abort is not a failure). */
  readonly error: string | null;
  /** The agents the turn messaged itself. */
  readonly answered: ReadonlySet<string>;
}

/**
 * Closes a turn in one commit: the messages it was given are marked read; the harness
 * fallback completes the task a member left unfinished with its final reply (or gives it
 * back when there is no reply); a member that failed or is out of turns gives its tasks
 * back; an agent woken by messages it did not answer has its reply sent to their senders,
 * marked automatic (and automatic messages never get one, so agents cannot ping-pong);
 * then the turn's usage and end are emitted.
 */
export function endTurn({ board, mailbox, emit }: TeamRules, end: TurnEnd): void {
  const { start, outcome } = end;
  const { state, reason } = start;
  const name = state.agent.name;
  mailbox.markRead(
    name,
    start.messages.map((message) => message.id),
  );
  if (state.role === 'member') {
    const held = board.heldBy(name);
    if (held && outcome) {
      if (outcome.text) board.updateTask(held.id, { status: 'completed', result: outcome.text }, name);
      else
        board.updateTask(
          held.id,
          { status: 'pending', note: `${name} ended its turn without a result` },
          name,
        );
    }
    if (end.status === 'failed' || end.status === 'stopped') board.releaseMember(name, name);
  }
  if (outcome?.text && reason === 'message') {
    const unanswered = start.messages.filter(
      (message) => !message.automatic && !end.answered.has(message.from),
    );
    for (const sender of new Set(unanswered.map((message) => message.from))) {
      mailbox.send(name, sender, outcome.text, { automatic: true });
    }
  }
  if (end.usage) {
    emit({
      type: 'team:turn-usage',
      data: { member: name, role: state.role, turn: state.turns, model: state.modelName, usage: end.usage },
    });
  }
  emit({
    type: 'team:member-finished',
    data: {
      member: name,
      role: state.role,
      turn: state.turns,
      reason,
      status: end.status,
      output: outcome?.text ?? '',
      error: end.error,
    },
  });
}
