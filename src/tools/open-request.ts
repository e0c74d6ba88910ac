import type { Agent } from '../agent/agent.js';
import type { RequestKind, TeamEventDraft } from '../events/team-event-map.js';
import type { RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamStore } from '../store/team-store.js';
import type { GovernanceSettings } from './governance-settings.js';

/** What a turn's governed tools act on: the turn, its agent, and the run as folded so far. */
export interface TurnGovernance {
  readonly store: TeamStore;
  readonly team: string;
  readonly turn: TurnDescriptor;
  readonly agent: Agent;
  readonly run: () => RunState;
  readonly settings: GovernanceSettings;
  /** Requests this turn opened: once there is one, the turn ends after its current step. */
  readonly opened: string[];
}

export interface RequestDraft {
  readonly kind: RequestKind;
  /** Whom to ask; the run forwards a request to the lead to the person when the lead can take no more turns. */
  readonly to: 'lead' | 'user';
  readonly subject: string;
  readonly taskId: string | null;
  readonly tool: string | null;
  readonly path: string | null;
}

/** A subject's bound: the answerer reads it in a briefing or a terminal. */
const SUBJECT_LENGTH = 20_000;

/**
 * The `team:request-opened` event for a draft: a plan goes ahead when nobody answers
 * (`planApprovalTimeoutMs`), a permission or tool call is denied (`permissionTimeoutMs`).
 */
export function requestOpened(
  requestId: string,
  from: string,
  draft: RequestDraft,
  settings: GovernanceSettings,
): TeamEventDraft {
  const plan = draft.kind === 'plan';
  const subject =
    draft.subject.length > SUBJECT_LENGTH ? `${draft.subject.slice(0, SUBJECT_LENGTH - 1)}…` : draft.subject;
  return {
    type: 'team:request-opened',
    data: {
      requestId,
      kind: draft.kind,
      from,
      to: draft.to,
      subject,
      taskId: draft.taskId,
      tool: draft.tool,
      path: draft.path,
      timeoutMs: plan ? settings.planApprovalTimeoutMs : settings.permissionTimeoutMs,
      defaultApprove: plan,
    },
  };
}

/**
 * Opens a request from the turn's agent in one commit and answers its id. Ids are the
 * agent, its turn number and a count within the turn: unique in the run without any
 * shared counter, and stable to read in a log.
 */
export async function openRequest(
  context: TurnGovernance,
  draft: RequestDraft,
): Promise<{ readonly requestId: string; readonly to: 'lead' | 'user' }> {
  const { turn } = context;
  const requestId = `req-${turn.agent}-${turn.turn}-${context.opened.length + 1}`;
  context.opened.push(requestId);
  try {
    const event = requestOpened(requestId, turn.agent, draft, context.settings);
    await context.store.transact(context.team, ({ emit }) => emit(event));
    return { requestId, to: draft.to };
  } catch (error) {
    context.opened.splice(context.opened.indexOf(requestId), 1);
    throw error;
  }
}

/** What a tool answers once it asked: the turn ends, and the answer comes with the next one. */
export function askedAnswer(
  asked: { readonly requestId: string; readonly to: 'lead' | 'user' },
  what: string,
) {
  const { requestId, to } = asked;
  return {
    success: false as const,
    error:
      `${what} needs an answer from ${to === 'lead' ? 'the lead' : 'the user'}: asked as ${requestId}. ` +
      'Your turn ends after this step; you will be given the answer in your next turn.',
  };
}
