import { USER } from '../agent/participants.js';
import type { TeamTask } from '../board/task.js';
import type { TeamEvent } from '../events/team-event-map.js';
import type { AgentRunState, RunState, WaitingOn } from './run-state.js';

// Who waits, and on what: an agent between turns with a request of its own open, or a member
// whose question nobody has answered, is `waiting` (it takes no turn and holds no slot, its
// task kept); the answer, or the question's expiry, makes it `idle` again. Part of the fold:
// `applyEvent` calls `foldWaiting` after every event, once the requests are folded.

/** The open request `agent` asked, if any. */
function openRequestOf(state: RunState, agent: string): string | undefined {
  for (const request of state.governance.requests.values())
    if (request.from === agent && request.status === 'open') return request.id;
  return undefined;
}

/** Sets `waiting` (and on what) or `idle` for an agent between turns; other statuses stay. */
function settle(state: RunState, agent: AgentRunState): void {
  if (agent.status !== 'idle' && agent.status !== 'waiting') {
    agent.waitingOn = null;
    return;
  }
  const requestId = openRequestOf(state, agent.name);
  const { question } = agent;
  const on: WaitingOn | null = requestId
    ? { kind: 'request', requestId }
    : question
      ? { kind: 'question', messageId: question.messageId, to: question.to }
      : null;
  agent.waitingOn = on;
  agent.status = on ? 'waiting' : 'idle';
}

/** A message: a member's question is kept; an answer to one (from whom it asked, or the person) clears it. */
function messageSent(state: RunState, event: TeamEvent<'team:message-sent'>): void {
  const { id, from, to, content, kind } = event.data;
  const sender = state.agents.get(from);
  if (kind === 'question' && sender?.role === 'member' && sender.status === 'working') {
    const askedAt = Date.parse(event.timestamp);
    const { turns: turn, taskId } = sender;
    sender.question = { messageId: id, to, content, askedAt, turn, taskId };
    sender.questionTurn = turn;
  }
  for (const name of to) {
    const reader = state.agents.get(name);
    if (!reader?.question) continue;
    if (from !== USER && !reader.question.to.includes(from)) continue;
    reader.question = null;
    settle(state, reader);
  }
}

/** Folds what an event changes of who waits (after `applyEvent` and the requests' fold). */
export function foldWaiting(state: RunState, event: TeamEvent): void {
  switch (event.type) {
    case 'team:message-sent':
      messageSent(state, event);
      break;
    case 'team:question-expired': {
      const agent = state.agents.get(event.data.member);
      if (agent?.question?.messageId !== event.data.messageId) break;
      agent.unanswered = agent.question;
      agent.question = null;
      settle(state, agent);
      break;
    }
    case 'team:member-started': {
      const agent = state.agents.get(event.data.member);
      // The turn was told that its question went unanswered (its context carries it).
      if (agent) agent.unanswered = null;
      break;
    }
    case 'team:member-shutdown': {
      const agent = state.agents.get(event.data.member);
      if (agent) agent.question = null;
      if (agent) settle(state, agent);
      break;
    }
    case 'team:member-finished': {
      const agent = state.agents.get(event.data.member);
      if (agent) settle(state, agent);
      break;
    }
    case 'team:request-opened':
    case 'team:request-answered':
    case 'team:request-expired': {
      const asker = state.governance.requests.get(event.data.requestId)?.from;
      const agent = asker === undefined ? undefined : state.agents.get(asker);
      if (agent) settle(state, agent);
      break;
    }
    case 'team:resumed':
      for (const agent of state.agents.values()) settle(state, agent);
      break;
  }
}

/** What a waiting agent waits on, in a few words ("on request r1", "on an answer from lead"). */
export function waitingOnText(agent: AgentRunState): string {
  const on = agent.waitingOn;
  if (!on) return '';
  return on.kind === 'request' ? `on request ${on.requestId}` : `on an answer from ${on.to.join(', ')}`;
}

/** The task `member` holds in progress (a waiting member keeps its task between turns). */
export function heldTask(tasks: ReadonlyMap<string, TeamTask>, member: string): TeamTask | undefined {
  for (const task of tasks.values()) if (task.status === 'in_progress' && task.owner === member) return task;
  return undefined;
}
