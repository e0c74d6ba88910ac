import type { AgentRole, SynthesisPart, TurnReason } from '../events/team-event-map.js';

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
