import { addUsage } from '../agent/usage.js';
import type { TeamEvent, TeamEventMap } from '../events/team-event-map.js';
import { applyGovernanceEvent } from './governance-fold.js';
import { foldLifecycle } from './lifecycle-fold.js';
import { agentOf, emptyRunState, type RunState } from './run-state.js';
import type { TurnDescriptor } from './turn-descriptor.js';
import { foldWaiting } from './waiting-fold.js';

function turnStarted(state: RunState, data: TeamEventMap['team:member-started']): void {
  const agent = agentOf(state, data.member, data.role);
  // The turn after the one an interrupt cut starts with its message: the interrupt is done.
  const cutTurn = agent.interrupt?.turn;
  if (agent.interrupt && (cutTurn === null || data.turn > (cutTurn ?? 0))) agent.interrupt = null;
  agent.status = 'working';
  agent.reason = data.reason;
  agent.taskId = data.taskId;
  agent.turns = data.turn;
  // A replay of a turn a crash cut is the same turn: it is counted once.
  if (data.reason !== 'synthesis' && data.replay !== true) agent.countedTurns++;
  agent.replay = null;
  agent.answered.clear();
  if (data.role === 'member') state.lastStarted = data.member;
  if (data.reason === 'stalled') state.progressAtStall = state.progress;
  agent.synthesis = data.synthesis ?? null;
}

/**
 * The run state as it will be once a member's turn start is folded, for the rest of the
 * transaction that commits it: the run loop starts every turn the schedule allows in one
 * commit, deciding each on the state after the ones before. A copy of what the start changes
 * of the agent and the rotation (what the schedule reads); `state` is left as it is. The
 * governance and waiting parts of a start concern the started agent's own requests, which the
 * schedule reads only of agents that are not working.
 */
export function startedView(state: RunState, turn: TurnDescriptor): RunState {
  const agents = new Map(state.agents);
  const agent = agents.get(turn.agent);
  if (agent) agents.set(turn.agent, { ...agent, answered: new Set(agent.answered) });
  const view: RunState = { ...state, agents };
  const { reason, taskId, messageIds, synthesis } = turn;
  turnStarted(view, {
    member: turn.agent,
    role: turn.role,
    turn: turn.turn,
    reason,
    taskId,
    messageIds,
    ...(synthesis ? { synthesis } : {}),
    // A replay keeps the number of the turn a crash cut.
    ...(agent && turn.turn === agent.turns ? { replay: true } : {}),
  });
  return view;
}

function turnFinished(state: RunState, data: TeamEventMap['team:member-finished']): void {
  const agent = agentOf(state, data.member, data.role);
  agent.status = data.status;
  agent.reason = null;
  agent.taskId = null;
  agent.lastOutput = data.output;
  agent.answered.clear();
  const part = agent.synthesis;
  // A synthesis turn that ended well: a part's summary is kept, the final answer ends it.
  if (data.reason === 'synthesis' && data.status !== 'failed') {
    if (part && !part.final) state.summaries.set(`${part.level}.${part.index}`, data.output);
    else if (state.ending) state.ending.done = true;
  }
  agent.synthesis = null;
  if (data.role === 'lead' && data.reason === 'start') state.startOutput = data.output;
  if (data.status === 'failed')
    state.failure ??= { agent: data.member, error: data.error ?? 'failed', fatal: data.fatal === true };
}

/**
 * A run picked up again: turns that were cut off are over, and so is its last end and any
 * stop asked of it. What was decided stays: departures asked for, the budget reached, the
 * run's end and how far its synthesis got.
 */
function resumed(state: RunState, at: number): void {
  state.openedAt = at;
  state.abort = null;
  for (const agent of state.agents.values()) {
    if (agent.status === 'working' && agent.reason !== null) {
      // Cut by the crash: its next turn for the same work replays this one.
      agent.replay = { turn: agent.turns, reason: agent.reason, taskId: agent.taskId };
      agent.status = 'idle';
    }
    agent.idleNotified = false;
    agent.reason = null;
    agent.taskId = null;
    agent.answered.clear();
    agent.synthesis = null;
  }
  state.failure = null;
  state.stopReason = null;
}

/**
 * Folds one committed event into the run state, in place (the state has one writer: the
 * run's loop, or a viewer's own copy). Deterministic: it reads nothing but its arguments,
 * so the same events always give the same state, live or on resume.
 */
export function applyEvent(state: RunState, event: TeamEvent): void {
  if (event.seq <= state.seq) return; // folded already (a catch-up may see it twice)
  state.seq = event.seq;
  state.runId ??= event.runId;
  state.team = event.team;
  state.startedAt ??= event.timestamp;
  switch (event.type) {
    case 'team:start':
      state.openedAt = Date.parse(event.timestamp);
      state.input = event.data.input;
      state.lead = event.data.lead;
      agentOf(state, event.data.lead, 'lead');
      for (const member of event.data.members) agentOf(state, member, 'member');
      break;
    case 'team:resumed':
      resumed(state, Date.parse(event.timestamp));
      break;
    case 'team:abort-requested':
      state.abort ??= { reason: event.data.reason, by: event.data.by };
      break;
    case 'team:budget-reached': {
      const { agent, ...reached } = event.data;
      if (agent === null) state.budgetReached ??= reached;
      break;
    }
    case 'team:run-ending':
      state.ending = { ...event.data, parts: [], done: event.data.synthesis === 'none' };
      state.summaries.clear();
      break;
    case 'team:synthesis-planned':
      state.ending?.parts.push(...event.data.parts);
      break;
    case 'team:member-started':
      turnStarted(state, event.data);
      break;
    case 'team:member-finished':
      turnFinished(state, event.data);
      break;
    case 'team:turn-usage': {
      const agent = agentOf(state, event.data.member, event.data.role);
      agent.usage = addUsage(agent.usage, event.data.usage);
      state.usage = addUsage(state.usage, event.data.usage);
      break;
    }
    case 'team:task-claimed': {
      state.progress++;
      state.tasks.set(event.data.task.id, event.data.task);
      const agent = state.agents.get(event.data.member);
      if (agent?.status === 'working') agent.taskId = event.data.task.id;
      if (agent) agent.idleNotified = false;
      break;
    }
    case 'team:task-created':
    case 'team:task-assigned':
    case 'team:task-updated':
    case 'team:task-completed':
    case 'team:task-edited':
    case 'team:task-deleted':
      state.progress++;
      state.tasks.set(event.data.task.id, event.data.task);
      break;
    case 'team:message-sent': {
      state.progress++;
      const { id, from, to, content, automatic, idleReason } = event.data;
      const kind = event.data.kind ?? 'text';
      state.messages.push({ id, from, to, content, automatic, timestamp: event.timestamp, kind, idleReason });
      const sender = state.agents.get(from);
      if (sender?.status === 'working') for (const reader of to) sender.answered.add(reader);
      if (sender && kind === 'idle_notification') sender.idleNotified = true;
      break;
    }
    case 'team:complete':
      state.stopReason = event.data.stopReason;
      break;
    // A turn's transcript (and its live text) is for reading: it decides nothing.
    case 'team:turn-prompt':
    case 'team:turn-text':
    case 'team:tool-called':
    case 'team:tool-result':
    case 'team:text-delta':
    // The store's outages are the view's to show (the live one has no place in the log).
    case 'team:store-outage':
      break;
    default:
      foldLifecycle(state, event);
  }
  applyGovernanceEvent(state.governance, event);
  foldWaiting(state, event);
  const actor = actorOf(event);
  const agent = actor === undefined ? undefined : state.agents.get(actor);
  if (agent) agent.lastActiveAt = Date.parse(event.timestamp);
}

/** The agent whose own doing an event records, if it records one. */
function actorOf(event: TeamEvent): string | undefined {
  switch (event.type) {
    case 'team:member-joined':
    case 'team:member-started':
    case 'team:member-finished':
    case 'team:task-claimed':
      return event.data.member;
    case 'team:tool-called':
    case 'team:tool-result':
      return event.data.agent;
    case 'team:message-sent':
      return event.data.from;
    case 'team:task-created':
    case 'team:task-assigned':
    case 'team:task-updated':
    case 'team:task-completed':
      return event.data.by;
    default:
      return undefined;
  }
}

/** The state of a run from its events, in commit order. */
export function foldEvents(events: readonly TeamEvent[]): RunState {
  const state = emptyRunState();
  for (const event of events) applyEvent(state, event);
  return state;
}
