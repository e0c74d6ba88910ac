import type { TeamTask } from '../../board/task.js';
import type {
  AgentRole,
  MemberStatus,
  StopReason,
  TeamEvent,
  TurnReason,
} from '../../events/team-event-map.js';

export interface AgentView {
  readonly name: string;
  readonly role: AgentRole;
  status: MemberStatus;
  reason: TurnReason | null;
  taskId: string | null;
  turns: number;
  tokens: number;
  /** `undefined` once any of its turns was on an unpriced model. */
  cost: number | undefined;
}

interface MessageView {
  readonly from: string;
  readonly to: readonly string[];
  readonly content: string;
  readonly automatic: boolean;
}

/** What the live view shows, built from the run's events alone. */
export interface ViewModel {
  team: string;
  runId: string | null;
  input: string;
  /** When the first event came, ms since the epoch. */
  startedAt: number;
  readonly agents: Map<string, AgentView>;
  readonly tasks: Map<string, TeamTask>;
  readonly messages: MessageView[];
  tokens: number;
  cost: number | undefined;
  stopReason: StopReason | null;
}

const KEPT_MESSAGES = 6;

export function emptyView(): ViewModel {
  return {
    team: '',
    runId: null,
    input: '',
    startedAt: Date.now(),
    agents: new Map(),
    tasks: new Map(),
    messages: [],
    tokens: 0,
    cost: 0,
    stopReason: null,
  };
}

function agent(view: ViewModel, name: string, role: AgentRole): AgentView {
  let found = view.agents.get(name);
  if (!found) {
    found = { name, role, status: 'idle', reason: null, taskId: null, turns: 0, tokens: 0, cost: 0 };
    view.agents.set(name, found);
  }
  return found;
}

/** Folds one event into the view. */
export function applyEvent(view: ViewModel, event: TeamEvent): void {
  if (view.runId === null) {
    view.runId = event.runId;
    view.team = event.team;
    view.startedAt = Date.parse(event.timestamp);
  }
  switch (event.type) {
    case 'team:start':
      view.input = event.data.input;
      agent(view, event.data.lead, 'lead');
      for (const member of event.data.members) agent(view, member, 'member');
      break;
    case 'team:member-started': {
      const state = agent(view, event.data.member, event.data.role);
      Object.assign(state, {
        status: 'working',
        reason: event.data.reason,
        taskId: event.data.taskId,
        turns: event.data.turn,
      });
      break;
    }
    case 'team:member-finished':
      Object.assign(agent(view, event.data.member, event.data.role), {
        status: event.data.status,
        reason: null,
        taskId: null,
      });
      break;
    case 'team:turn-usage': {
      const state = agent(view, event.data.member, event.data.role);
      const { totalTokens, cost } = event.data.usage;
      state.tokens += totalTokens;
      state.cost = state.cost === undefined || cost === undefined ? undefined : state.cost + cost;
      view.tokens += totalTokens;
      view.cost = view.cost === undefined || cost === undefined ? undefined : view.cost + cost;
      break;
    }
    case 'team:task-claimed': {
      view.tasks.set(event.data.task.id, event.data.task);
      const state = view.agents.get(event.data.member);
      if (state) state.taskId = event.data.task.id;
      break;
    }
    case 'team:task-created':
    case 'team:task-assigned':
    case 'team:task-updated':
    case 'team:task-completed':
      view.tasks.set(event.data.task.id, event.data.task);
      break;
    case 'team:message-sent':
      view.messages.push({
        from: event.data.from,
        to: event.data.to,
        content: event.data.content,
        automatic: event.data.automatic,
      });
      view.messages.splice(0, Math.max(0, view.messages.length - KEPT_MESSAGES));
      break;
    case 'team:complete':
      view.stopReason = event.data.stopReason;
      break;
    case 'team:resumed':
      view.stopReason = null;
      break;
  }
}
