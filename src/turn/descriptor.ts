import type { AgentRole, SynthesisPart, TurnReason } from '../events/team-event-map.js';
import type { RunState } from '../run/run-state.js';
import type { Decision } from '../run/schedule.js';
import type { TeamRules } from '../store/team-store.js';

/**
 * A turn as a plain record: everything a process holding the team definition needs to run
 * it (the prompt is read from the store, the tools are bound to `agent`). Serialisable, so
 * a turn can run in this process or be sent to a worker elsewhere.
 */
export interface TurnDescriptor {
  readonly runId: string;
  readonly team: string;
  readonly agent: string;
  readonly role: AgentRole;
  readonly reason: TurnReason;
  /** The agent's turn number in the run, from 1. */
  readonly turn: number;
  /** The task the turn is for (claimed as it started), if any. */
  readonly taskId: string | null;
  /** The unread messages the turn was given; marked read when it ends. */
  readonly messageIds: readonly string[];
  /** The thread whose history the agent's turns carry, if the run has one. */
  readonly threadId: string | null;
  /** A synthesis done in parts: which part this turn is (absent for every other turn). */
  readonly synthesis?: SynthesisPart;
}

/**
 * Starts the turn `decision` names, in one commit: its `team:member-started` event and the
 * claim of its task (unless the member holds it already). The rules re-check the claim, so a
 * snapshot that went stale only makes the commit fail, never a double claim.
 */
export function startTurn(
  { board, emit }: TeamRules,
  state: RunState,
  decision: Extract<Decision, { kind: 'turn' }>,
  threadId: string | null,
  synthesis?: SynthesisPart,
): TurnDescriptor {
  const agent = state.agents.get(decision.agent);
  if (!agent || state.runId === null) throw new Error(`No agent ${decision.agent} in the run`);
  const descriptor: TurnDescriptor = {
    runId: state.runId,
    team: state.team,
    agent: agent.name,
    role: agent.role,
    reason: decision.reason,
    turn: agent.turns + 1,
    taskId: decision.taskId,
    messageIds: decision.messageIds,
    threadId,
    ...(synthesis ? { synthesis } : {}),
  };
  const { role, reason, turn, taskId, messageIds } = descriptor;
  const part = synthesis ? { synthesis } : {};
  emit({
    type: 'team:member-started',
    data: { member: agent.name, role, turn, reason, taskId, messageIds, ...part },
  });
  if (decision.taskId && board.heldBy(agent.name)?.id !== decision.taskId) {
    board.claimTask(agent.name, decision.taskId);
  }
  return descriptor;
}
