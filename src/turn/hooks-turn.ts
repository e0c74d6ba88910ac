import { cutTo, LIMITS } from '../events/limits.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamRules, TeamStore } from '../store/team-store.js';
import { callHook, propose, type TeamHooks } from '../tools/hooks.js';
import { endTurn } from './turn-end.js';
import type { HookRejection, TurnOutcome } from './turn-outcome.js';

export interface TurnEndJudgement {
  readonly store: TeamStore;
  readonly hooks: TeamHooks;
  readonly turn: TurnDescriptor;
  /** The turn's outcome as the model loop left it. */
  readonly outcome: Extract<TurnOutcome, { kind: 'done' }>;
  readonly maxTurnsPerMember: number;
}

/**
 * The hooks on how a member's turn ends, run by the turn itself before it reports (so the
 * run's loop never waits on a hook): `onTaskCompleted` on the harness completing the turn's
 * task with the reply, then `onTeammateIdle` when the member would be left with nothing to
 * take. Each judges the turn's end as the rules would commit it now, tried in a transaction
 * that is undone; the loop's commit of the turn's end checks again. Throws `hook-failed`.
 */
export async function judgeTurnEnd(judged: TurnEndJudgement): Promise<HookRejection | undefined> {
  const { store, hooks, turn, outcome } = judged;
  if (turn.role !== 'member') return undefined;
  const context = { team: turn.team, runId: turn.runId, agent: turn.agent };
  const transact = (fn: (rules: TeamRules) => never) => store.transact(turn.team, fn);
  const taskId = turn.taskId;
  if (hooks.onTaskCompleted && taskId && outcome.text) {
    const task = await propose(transact, ({ board }) =>
      board.heldBy(turn.agent)?.id === taskId
        ? board.updateTask(
            taskId,
            { status: 'completed', result: cutTo(outcome.text, LIMITS.taskText) },
            turn.agent,
          )
        : undefined,
    );
    const feedback = task && (await callHook(hooks, 'onTaskCompleted', task, context));
    if (feedback) return { hook: 'onTaskCompleted', feedback, taskId };
  }
  // Out of turns, or asked to shut down (as the turn started; one asked since is an unread message): it is stopping.
  if (!hooks.onTeammateIdle || turn.context?.shutdownRequest) return undefined;
  if ((turn.context?.countedTurns ?? 0) >= judged.maxTurnsPerMember) return undefined;
  // Whom the turn messaged decides only whom the harness replies to, not whether anything is left.
  const answered = new Set<string>();
  const nothingLeft = await propose(transact, (rules) => {
    endTurn(rules, { turn, outcome, status: 'idle', answered, idleNotified: true });
    const { board, mailbox } = rules;
    return !board.heldBy(turn.agent) && !board.nextClaimable(turn.agent) && !mailbox.hasUnread(turn.agent);
  });
  if (!nothingLeft) return undefined;
  const member = { name: turn.agent, output: outcome.text, turns: turn.turn };
  const feedback = await callHook(hooks, 'onTeammateIdle', member, context);
  return feedback ? { hook: 'onTeammateIdle', feedback, taskId: null } : undefined;
}
