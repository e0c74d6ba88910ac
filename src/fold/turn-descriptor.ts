import type { JoinedMember } from '../agent/team-formation.js';
import type { AgentRole, MemberStatus, SynthesisPart, TurnReason } from '../events/team-event-map.js';

/**
 * What a turn reads of its run, as the run's fold had it when the turn started: kept with the
 * turn, so a turn runs from its descriptor and the store alone, wherever it runs, without
 * reading the run's log.
 * @inline
 */
export interface TurnContext {
  /** The run's request (start and synthesis turns read it; a member's turns read it as the team's goal). */
  readonly input?: string;
  /** The run has a budget in USD (lead turns only): a member the lead spawns must be on a priced model. */
  readonly countsCost?: true;
  /** Members that joined during the run (the lead's prompt lists them; a worker runs them from this). */
  readonly joined?: readonly JoinedMember[];
  /** Each member's status (a stalled turn's briefing says who can still work). */
  readonly members?: readonly {
    /** The member's name. */
    readonly name: string;
    /** Its status. */
    readonly status: MemberStatus;
  }[];
  /** The summaries a synthesis part reads, by key (`level.index`). */
  readonly summaries?: Readonly<Record<string, string>>;
  /** The graceful shutdown asked of the member and not answered yet: it gets `respond_to_shutdown`. */
  readonly shutdownRequest?: {
    /** The shutdown request sent to it. */
    readonly messageId: string | null;
    /** Why, as the requester gave it. */
    readonly reason: string | null;
  };
  /** Its last question, unanswered within `questionTimeoutMs`: the briefing says nobody answered. */
  readonly unanswered?: {
    /** Whom it asked. */
    readonly to: readonly string[];
    /** The question's text. */
    readonly content: string;
  };
  /** The person interrupted its last turn (or its wait): the briefing starts with their message. */
  readonly interrupt?: {
    /** The message its turn starts with. */
    readonly messageId: string;
    /** Who interrupted it. */
    readonly by: string;
  };
  /** The member's counted turns when this one is included (a hook on going idle is not asked of a member out of turns). */
  readonly countedTurns?: number;
}

/**
 * A turn as a plain record: everything a process holding the team definition needs to run
 * it (the prompt is read from the store, the tools are bound to `agent`). Serialisable, so
 * a turn can run in this process or be sent to a worker elsewhere.
 */
export interface TurnDescriptor {
  /** The run the turn belongs to. */
  readonly runId: string;
  /** The team's name. */
  readonly team: string;
  /** The agent whose turn it is. */
  readonly agent: string;
  /** Whether it is the lead or a member. */
  readonly role: AgentRole;
  /** Why the turn is taken. */
  readonly reason: TurnReason;
  /** The agent's turn number in the run, from 1. */
  readonly turn: number;
  /** The task the turn is for (claimed as it started), if any. */
  readonly taskId: string | null;
  /** The unread messages the turn was given; marked read when it ends. */
  readonly messageIds: readonly string[];
  /** The answers to the agent's requests the turn is given (they count as delivered when it ends). */
  readonly answerIds?: readonly string[];
  /** The thread whose history the agent's turns carry, if the run has one. */
  readonly threadId: string | null;
  /** A synthesis done in parts: which part this turn is (absent for every other turn). */
  readonly synthesis?: SynthesisPart;
  /** What the turn reads of its run (absent in descriptors queued before it was kept). */
  readonly context?: TurnContext;
}
