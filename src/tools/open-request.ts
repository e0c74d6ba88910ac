import type { Agent } from '../agent/agent.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { RequestRecord } from '../requests/request-state.js';
import type { RequestDraft } from '../requests/team-requests.js';
import type { TeamStore } from '../store/team-store.js';
import type { GovernanceSettings } from './governance-settings.js';

/** What a turn's governed tools act on: the turn, its agent, and the team's store. */
export interface TurnGovernance {
  readonly store: TeamStore;
  readonly team: string;
  readonly turn: TurnDescriptor;
  readonly agent: Agent;
  readonly settings: GovernanceSettings;
  /** Requests this turn opened: once there is one, the turn ends after its current step. */
  readonly opened: string[];
  /**
   * The approved call the harness is running now (at the turn's start, as asked): the gate
   * that asked lets exactly this call through, once.
   */
  approvedCall: RequestRecord | null;
}

/**
 * Opens a request from the turn's agent in one commit (the rules answer the open request
 * when the agent asked exactly this already) and answers it.
 */
export async function openRequest(context: TurnGovernance, draft: RequestDraft): Promise<RequestRecord> {
  const { turn, settings } = context;
  const request = await context.store.transact(context.team, ({ requests }) =>
    requests.open(turn.agent, draft, turn.turn, settings),
  );
  if (!context.opened.includes(request.id)) context.opened.push(request.id);
  return request;
}

/** What a tool answers once it asked: the turn ends, and the answer comes with the next one. */
export function askedAnswer(asked: RequestRecord, what: string) {
  return {
    success: false as const,
    error:
      `${what} needs an answer from ${asked.to === 'lead' ? 'the lead' : 'the user'}: asked as ${asked.id}. ` +
      'Your turn ends after this step; you will be given the answer in your next turn.',
  };
}
