import { InMemoryBlackboard } from '../board/in-memory-blackboard.js';
import type { TeamTask } from '../board/task.js';
import { emptyTaskList, putTask, type TaskListState } from '../board/task-list-state.js';
import { TASK_LIST_SECTION } from '../board/team-task-board.js';
import { InMemoryMessageBus } from '../mailbox/in-memory-message-bus.js';
import type { TeamMessage } from '../mailbox/message.js';
import { emptyRequests, type RequestsState } from '../requests/request-state.js';
import { activeRoster } from '../roster/roster.js';
import type { TeamInfo } from './team-store.js';

/**
 * One team held in memory: its info, the blackboard with its task list, the bus with its
 * inboxes and its run's requests. The MemoryStore keeps these as the truth; the FileStore
 * and the PostgresStore as a cache of what they persist.
 */
export interface TeamState {
  info: TeamInfo;
  readonly blackboard: InMemoryBlackboard;
  readonly bus: InMemoryMessageBus;
  /** Replaced, never changed in place: a transaction works on a copy (see transaction.ts). */
  requests: RequestsState;
  /** Events committed since the run began. */
  eventSeq: number;
}

interface TeamContent {
  tasks?: readonly TeamTask[];
  highWatermark?: number;
  inboxes?: Record<string, readonly TeamMessage[]>;
  requests?: RequestsState;
}

export function teamState(info: TeamInfo, content: TeamContent = {}, eventSeq = 0): TeamState {
  const list = emptyTaskList(activeRoster(info.roster), info);
  for (const task of content.tasks ?? []) putTask(list, task);
  list.highWatermark = content.highWatermark ?? 0;
  const blackboard = new InMemoryBlackboard({ enabled: true, sections: { [TASK_LIST_SECTION]: list } });
  const bus = new InMemoryMessageBus({ enabled: true });
  for (const [agent, messages] of Object.entries(content.inboxes ?? {})) bus.replaceInbox(agent, messages);
  return { info, blackboard, bus, requests: content.requests ?? emptyRequests(), eventSeq };
}

export function taskList(state: TeamState): TaskListState {
  return state.blackboard.read<TaskListState>(TASK_LIST_SECTION) as TaskListState;
}

/**
 * The same team with a new roster or options; tasks and inboxes carried over, and the
 * requests unless a new run begins (`requests: false`): requests belong to their run.
 */
export function withInfo(state: TeamState, info: TeamInfo, options: { requests?: boolean } = {}): TeamState {
  const list = taskList(state);
  const inboxes = Object.fromEntries(state.bus.agents().map((agent) => [agent, state.bus.inbox(agent)]));
  const requests = options.requests === false ? emptyRequests() : state.requests;
  return teamState(
    info,
    { tasks: list.tasks, highWatermark: list.highWatermark, inboxes, requests },
    state.eventSeq,
  );
}
