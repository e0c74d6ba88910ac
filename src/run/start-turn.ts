import type { SynthesisPart, TurnReason } from '../events/team-event-map.js';
import { pendingAnswers } from '../fold/request-queries.js';
import type { AgentRunState, RunState } from '../fold/run-state.js';
import type { TurnContext, TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamRules } from '../store/team-store.js';
import type { Decision } from './schedule.js';

/** What a turn is given of its run besides the fold: its thread, and whether it has a budget in USD. */
export interface TurnRun {
  readonly threadId: string | null;
  /** The run's budget has `maxCostUsd`: the lead's turns say so (a member it spawns needs a priced model). */
  readonly countsCost: boolean;
}

/** What the turn reads of its run, from the fold as the turn starts (see `TurnContext`). */
function turnContext(
  state: RunState,
  agent: AgentRunState,
  reason: TurnReason,
  synthesis: SynthesisPart | undefined,
  replays: boolean,
  countsCost: boolean,
): TurnContext {
  const agents = [...state.agents.values()];
  const joined = agents.flatMap((each) => (each.joined ? [each.joined] : []));
  const members = agents
    .filter((each) => each.role === 'member')
    .map(({ name, status }) => ({ name, status }));
  const inputs = synthesis && synthesis.level > 1 ? synthesis.inputs : [];
  const summaries = Object.fromEntries(inputs.map((key) => [key, state.summaries.get(key) ?? '']));
  return {
    // Every turn reads the run's request: whole in the lead's start and synthesis, as the
    // team's goal (shortened when long) in the others.
    input: state.input,
    ...(joined.length > 0 ? { joined } : {}),
    ...(reason === 'stalled' ? { members } : {}),
    ...(inputs.length > 0 ? { summaries } : {}),
    ...(agent.shutdownRequest ? { shutdownRequest: agent.shutdownRequest } : {}),
    ...(agent.unanswered
      ? { unanswered: { to: agent.unanswered.to, content: agent.unanswered.content } }
      : {}),
    ...(agent.interrupt && reason !== 'synthesis'
      ? { interrupt: { messageId: agent.interrupt.messageId, by: agent.interrupt.by } }
      : {}),
    ...(countsCost && agent.role === 'lead' ? { countsCost: true } : {}),
    countedTurns: agent.countedTurns + (reason === 'synthesis' || replays ? 0 : 1),
  };
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
  { threadId, countsCost }: TurnRun,
  synthesis?: SynthesisPart,
): TurnDescriptor {
  const agent = state.agents.get(decision.agent);
  if (!agent || state.runId === null) throw new Error(`No agent ${decision.agent} in the run`);
  // The answers the agent has not had a turn with: this one gives them (not a synthesis).
  const answerIds =
    decision.reason === 'synthesis' ? [] : pendingAnswers(state, agent.name).map((request) => request.id);
  // The turn a crash cut, for the same work: replayed under its number (its effects keyed by it).
  const { replay } = agent;
  const replays = replay !== null && replay.reason === decision.reason && replay.taskId === decision.taskId;
  const context = turnContext(state, agent, decision.reason, synthesis, replays, countsCost);
  const descriptor: TurnDescriptor = {
    runId: state.runId,
    team: state.team,
    agent: agent.name,
    role: agent.role,
    reason: decision.reason,
    turn: replays ? agent.turns : agent.turns + 1,
    taskId: decision.taskId,
    messageIds: decision.messageIds,
    ...(answerIds.length > 0 ? { answerIds } : {}),
    threadId,
    ...(synthesis ? { synthesis } : {}),
    context,
  };
  const { role, reason, turn, taskId, messageIds } = descriptor;
  const part = synthesis ? { synthesis } : {};
  emit({
    type: 'team:member-started',
    data: {
      member: agent.name,
      role,
      turn,
      reason,
      taskId,
      messageIds,
      ...part,
      ...(replays ? { replay: true } : {}),
    },
  });
  if (decision.taskId && board.heldBy(agent.name)?.id !== decision.taskId) {
    board.claimTask(agent.name, decision.taskId);
  }
  return descriptor;
}

/** The decision that starts a synthesis turn of the lead (its part, if any, goes with it). */
function synthesisTurn(lead: string) {
  return { kind: 'turn', agent: lead, reason: 'synthesis', taskId: null, messageIds: [] } as const;
}

/**
 * Starts the lead's synthesis turn (or one part of it): it is also given what it has not
 * read (the notices that woke nobody), so nothing stays unread.
 */
export function startSynthesis(
  rules: TeamRules,
  state: RunState,
  lead: string,
  run: TurnRun,
  part: SynthesisPart | null,
): TurnDescriptor {
  const messageIds = rules.mailbox.unread(lead).map((message) => message.id);
  return startTurn(rules, state, { ...synthesisTurn(lead), messageIds }, run, part ?? undefined);
}
