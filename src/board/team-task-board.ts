import { checkRoster, type TeamRoster } from '../agent/participants.js';
import { TeamError } from '../errors/index.js';
import type { TaskCounts, TeamEventSink } from '../events/team-event-map.js';
import { assignTask } from './assign.js';
import { recorderOf } from './change-recorder.js';
import { claimableBy, claimTask, nextFor } from './claim.js';
import { createTask } from './create.js';
import { type DeletedTask, deleteTask } from './delete.js';
import { blockersOf, blocks, freedBy } from './dependencies.js';
import { editTask } from './edit.js';
import type { InMemoryBlackboard } from './in-memory-blackboard.js';
import { releaseMember } from './release-member.js';
import { requeueInProgress } from './requeue.js';
import type { NewTask, TaskChange, TaskEdit, TeamTask } from './task.js';
import {
  countTasks,
  emptyTaskList,
  findTask,
  putTask,
  type TaskListOptions,
  type TaskListState,
} from './task-list-state.js';
import { heldBy, requireTask } from './task-permissions.js';
import type { RuleContext, Transition } from './transition.js';
import { updateTask } from './update.js';

/** The blackboard section that holds the task list. */
export const TASK_LIST_SECTION = 'team';

/** What `TeamTaskBoard.initialize` takes: the roster and the list's options. */
export interface TaskBoardConfig extends TaskListOptions {
  /** The lead's name. */
  lead: string;
  /** The members' names. */
  members: readonly string[];
}

/** How a board is made, besides its list. */
export interface TaskBoardOptions {
  /** The clock the board stamps tasks with. Default: the system clock. */
  now?: () => Date;
}

/**
 * The team's task list and its rules, synchronous over a blackboard. Every call either
 * applies its whole change at once or throws a `TeamError` whose message is the reason,
 * changing nothing. Events go to `events` after the change is applied.
 *
 * @example
 * const board = TeamTaskBoard.initialize(new InMemoryBlackboard({ enabled: true, sections: {} }), undefined,
 *   { lead: 'editor', members: ['researcher', 'writer'] });
 * const research = board.createTask({ title: 'Research tides' }, 'editor');      // task-1
 * board.claimTask('researcher');                                                  // task-1, in progress
 * board.updateTask(research.id, { status: 'completed', result: 'The moon pulls the sea' }, 'researcher');
 */
export class TeamTaskBoard {
  readonly #blackboard: InMemoryBlackboard;
  readonly #events: TeamEventSink | undefined;
  readonly #now: () => Date;

  /** Starts a fresh, empty list for the roster in the blackboard's `team` section. */
  static initialize(
    blackboard: InMemoryBlackboard,
    events: TeamEventSink | undefined,
    config: TaskBoardConfig,
    options: TaskBoardOptions = {},
  ): TeamTaskBoard {
    if (typeof config !== 'object' || config === null) {
      throw new TeamError('invalid-input', 'A task board needs a config with its lead and members.');
    }
    const roster = checkRoster(config);
    const maxTasks = config.maxTasks ?? undefined;
    if (maxTasks !== undefined && (!Number.isInteger(maxTasks) || maxTasks < 1)) {
      throw new TeamError(
        'invalid-input',
        `maxTasks must be a whole number of at least 1, not ${String(maxTasks)}.`,
      );
    }
    blackboard.write(TASK_LIST_SECTION, emptyTaskList(roster, { selfClaim: config.selfClaim, maxTasks }));
    return new TeamTaskBoard(blackboard, events, options);
  }

  /** A board over the list already in the blackboard (made by `initialize` or a store). */
  constructor(blackboard: InMemoryBlackboard, events?: TeamEventSink, options: TaskBoardOptions = {}) {
    if (!blackboard.read(TASK_LIST_SECTION)) {
      throw new TeamError(
        'invalid-input',
        'The blackboard holds no task list: create one with TeamTaskBoard.initialize.',
      );
    }
    this.#blackboard = blackboard;
    this.#events = events;
    this.#now = options.now ?? (() => new Date());
  }

  /** The lead and the members the list knows. */
  get roster(): TeamRoster {
    return this.#state().roster;
  }

  /** Whether members may claim pending tasks given to no one. */
  get selfClaim(): boolean {
    return this.#state().selfClaim;
  }

  /** Puts a task on the list, created by `by`; refused past `maxTasks` or with an unknown dependency. */
  createTask(task: NewTask, by: string): TeamTask {
    return this.#apply((state, context) => createTask(state, task, by, context));
  }

  /** Gives a pending task to `assignee` (only it may claim it then); only the lead (or the person) assigns. */
  assignTask(taskId: string, assignee: string, by: string): TeamTask {
    return this.#apply((state, context) => assignTask(state, taskId, assignee, by, context));
  }

  /** Claims the named task, or the next one `member` may take; `undefined` when there is none. */
  claimTask(member: string, taskId?: string): TeamTask | undefined {
    return this.#apply((state, context) => claimTask(state, member, taskId, context));
  }

  /** Completes, releases or notes a task, by its owner or the lead, or changes its dependencies. */
  updateTask(taskId: string, change: TaskChange, by: string): TeamTask {
    return this.#apply((state, context) => updateTask(state, taskId, change, by, context));
  }

  /**
   * Reshapes a pending task: its title, description, dependencies (added or removed). By the
   * lead, the person (`user`) or the task's creator; a cycle, an unknown or a deleted
   * dependency is refused with the reason.
   */
  editTask(taskId: string, edit: TaskEdit, by: string): TeamTask {
    return this.#apply((state, context) => editTask(state, taskId, edit, by, context));
  }

  /**
   * Deletes a task, with a reason: its status becomes `deleted`, and the tasks that waited for
   * it no longer do (answered as `dependents`). By the lead, the person (`user`) or the task's
   * creator; refused while another agent holds it.
   */
  deleteTask(taskId: string, reason: string, by: string): DeletedTask {
    return this.#apply((state, context) => deleteTask(state, taskId, reason, by, context));
  }

  /** Gives all of `member`'s tasks back to the list; answers the tasks it changed. */
  releaseMember(member: string, by: string): TeamTask[] {
    return this.#apply((state, context) => releaseMember(state, member, by, context));
  }

  /** Puts every in-progress task back to pending, assignees kept (the lead, for a stopped run). */
  requeueInProgress(by: string): TeamTask[] {
    return this.#apply((state, context) => requeueInProgress(state, by, context));
  }

  /** The task with this id; `undefined` when there is none (or the id is not a string). */
  getTask(taskId: string): TeamTask | undefined {
    return typeof taskId === 'string' ? findTask(this.#state(), taskId) : undefined;
  }

  /** Every task, in id order. */
  listTasks(): TeamTask[] {
    return [...this.#state().tasks];
  }

  /** The tasks `member` may claim now: assigned to it first, then unassigned (with self-claim). */
  claimableBy(member: string): TeamTask[] {
    return claimableBy(this.#state(), member);
  }

  /**
   * The task `claimTask(member)` would take now: the first assigned to it, else (with
   * self-claim, unless `assignedOnly`) the first unassigned one; `undefined` when none is
   * ready. It does not look at whether the member holds a task. One look-up in the list's
   * index of ready tasks, whatever the length of the list.
   */
  nextClaimable(member: string, options: { assignedOnly?: boolean } = {}): TeamTask | undefined {
    return nextFor(this.#state(), member, options.assignedOnly === true);
  }

  /** The ids of the unfinished tasks `taskId` waits for. */
  blockersOf(taskId: string): string[] {
    const state = this.#state();
    return blockersOf(state, requireTask(state, taskId));
  }

  /** The unfinished tasks that wait for `taskId` while it is unfinished (none once it is completed or deleted). */
  blocks(taskId: string): string[] {
    const state = this.#state();
    return blocks(state, requireTask(state, taskId));
  }

  /** The pending tasks that wait only for `taskId`: those its completion unblocks. */
  unblockedBy(taskId: string): string[] {
    const state = this.#state();
    return freedBy(state, requireTask(state, taskId).id);
  }

  /** The task `member` works on now, if any. */
  heldBy(member: string): TeamTask | undefined {
    return heldBy(this.#state(), member);
  }

  /** How many tasks the list holds, by status (kept as the list changes: no count is taken). */
  counts(): TaskCounts {
    return countTasks(this.#state());
  }

  #state(): TaskListState {
    return this.#blackboard.read<TaskListState>(TASK_LIST_SECTION) as TaskListState;
  }

  #apply<T>(rule: (state: TaskListState, context: RuleContext) => Transition<T>): T {
    const state = this.#state();
    const transition = rule(state, { now: this.#now().toISOString() });
    const recorder = recorderOf(this);
    for (const task of transition.tasks) {
      recorder?.before(`task:${task.id}`, findTask(state, task.id));
      putTask(state, task);
    }
    if (transition.highWatermark !== undefined && transition.highWatermark !== state.highWatermark) {
      recorder?.before('highWatermark', state.highWatermark);
      state.highWatermark = transition.highWatermark;
    }
    for (const event of transition.events) this.#events?.emit(event);
    return transition.value;
  }
}
