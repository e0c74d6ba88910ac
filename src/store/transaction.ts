import { attachRecorder, type ChangeRecorder, type StateKey } from '../board/change-recorder.js';
import type { TeamTask } from '../board/task.js';
import { putTask, removeTask, type TaskListState } from '../board/task-list-state.js';
import { TASK_LIST_SECTION, TeamTaskBoard } from '../board/team-task-board.js';
import { TeamError } from '../errors/index.js';
import type { TeamEvent, TeamEventDraft } from '../events/team-event-map.js';
import type { TeamMessage } from '../mailbox/message.js';
import { TeamMailbox } from '../mailbox/team-mailbox.js';
import {
  applyRequestEvent,
  changesRequests,
  copyRequests,
  type RequestsState,
} from '../requests/request-state.js';
import { TeamRequests } from '../requests/team-requests.js';
import { activeRoster, departedNames, memberNames, type Roster } from '../roster/roster.js';
import { type RosterSlot, TeamRosterRules } from '../roster/team-roster-rules.js';
import { type TeamState, taskList } from './team-state.js';
import type { TeamInfo, TeamRules } from './team-store.js';

export interface Committed<T> {
  readonly value: T;
  /** The keys `fn` changed, each once. */
  readonly changed: readonly StateKey[];
  /** What each changed key held before `fn` (an inbox: its messages), for a store that writes only the difference. */
  readonly previous: ReadonlyMap<StateKey, unknown>;
  readonly drafts: readonly TeamEventDraft[];
  /**
   * Puts the state back as it was before `fn` (its event counter aside), for a commit that
   * did not land; only before the state's next transaction.
   */
  readonly undo: () => void;
}

/**
 * Thrown at a read-only attempt's first change, before anything changes. Private to this
 * module: should the callback catch it, `wanted` still tells that it meant to change something.
 */
class ChangeWanted extends Error {}

// One instance, thrown each time: a new Error per attempt would capture a stack trace, and
// every transaction that writes on the FileStore first runs as a read and stops here.
const CHANGE_WANTED = new ChangeWanted('This transaction changes the state: it runs again under the lock.');

/** Remembers the first previous value of every key a transaction touches. */
class UndoLog implements ChangeRecorder {
  readonly previous = new Map<StateKey, unknown>();
  sealed = false;
  /** In a read-only attempt: the callback tried to change something (or to emit). */
  wanted = false;

  constructor(readonly readOnly: boolean) {}

  before(key: StateKey, previous: unknown): void {
    this.checkOpen();
    this.checkWrite();
    if (!this.previous.has(key)) this.previous.set(key, previous);
  }

  /** Stops a read-only attempt at its first change: the rules call this before they change anything. */
  checkWrite(): void {
    if (!this.readOnly) return;
    this.wanted = true;
    throw CHANGE_WANTED;
  }

  /** Rules kept past their transaction (an async callback) must not change the state outside the lock. */
  checkOpen(): void {
    if (this.sealed) {
      throw new TeamError(
        'invalid-input',
        "These rules belong to a finished transaction: use them inside transact's callback.",
      );
    }
  }

  undo(state: TeamState): void {
    // The roster first: it puts the task list object back, and the task undos act on it.
    const roster = this.previous.get('roster') as RosterBefore | undefined;
    if (roster) {
      state.info = roster.info;
      state.blackboard.write(TASK_LIST_SECTION, roster.list);
    }
    for (const [key, previous] of this.previous) {
      if (key === 'roster') continue;
      if (key === 'requests') {
        state.requests = previous as RequestsState;
        continue;
      }
      const list = taskList(state);
      if (key === 'highWatermark') list.highWatermark = previous as number;
      else if (key.startsWith('task:')) {
        const id = key.slice('task:'.length);
        if (previous === undefined) removeTask(list, id);
        else putTask(list, previous as TeamTask);
      } else state.bus.replaceInbox(key.slice('inbox:'.length), previous as readonly TeamMessage[]);
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs `fn` over the team's state as one all-or-nothing step: when it throws, every change
 * it made is undone before the error is rethrown. The caller persists `changed` and then
 * publishes the events; nothing here does I/O.
 */
export function runTransaction<T>(
  state: TeamState,
  fn: (rules: TeamRules) => T,
  now: () => Date,
): Committed<T> {
  return runRules(state, fn, now, new UndoLog(false)) as Committed<T>;
}

/**
 * Runs `fn` over the team's state as a read: `{ value }` when it only read (or `{ error }`
 * when it threw without trying to change anything), or `undefined` when it tried to change
 * something, in which case it was stopped before the first change and the caller runs it
 * again as a transaction. Nothing in the state changes either way.
 */
export function runRead<T>(
  state: TeamState,
  fn: (rules: TeamRules) => T,
  now: () => Date,
): { value: T } | { error: unknown } | undefined {
  const undo = new UndoLog(true);
  try {
    const { value } = runRules(state, fn, now, undo);
    return undo.wanted ? undefined : { value };
  } catch (error) {
    return undo.wanted ? undefined : { error };
  }
}

function runRules<T>(
  state: TeamState,
  fn: (rules: TeamRules) => T,
  now: () => Date,
  undo: UndoLog,
): Committed<T> {
  const drafts: TeamEventDraft[] = [];
  const sink = {
    emit: (event: TeamEventDraft) => {
      undo.checkOpen();
      undo.checkWrite();
      drafts.push(event);
      // The requests are the fold of their events, here as in the run's fold: folded at once,
      // into a copy made at the transaction's first request event (the undo keeps the original).
      if (!changesRequests(event.type)) return;
      if (!undo.previous.has('requests')) {
        undo.before('requests', state.requests);
        state.requests = copyRequests(state.requests);
      }
      applyRequestEvent(state.requests, event, now().getTime());
    },
  };
  // Each set of rules is made at its first use: many transactions use one or two of them (a
  // step's commit of a turn's usage uses none), and a mailbox checks its roster as it is made.
  // The mailbox is made for the roster as the transaction began, as if made then.
  const { lead, roster: entries } = state.info;
  let board: TeamTaskBoard | undefined;
  let mailbox: TeamMailbox | undefined;
  let roster: TeamRosterRules | undefined;
  let requests: TeamRequests | undefined;
  const boardRules = () => {
    if (!board) {
      board = new TeamTaskBoard(state.blackboard, sink, { now });
      attachRecorder(board, undo);
    }
    return board;
  };
  const rules: TeamRules = {
    get board() {
      return boardRules();
    },
    get mailbox() {
      if (!mailbox) {
        const config = { lead, members: memberNames(entries), departed: departedNames(entries) };
        mailbox = new TeamMailbox(state.bus, sink, config, { now });
        attachRecorder(mailbox, undo);
      }
      return mailbox;
    },
    get roster() {
      roster ??= new TeamRosterRules(rosterSlot(state, undo, now), boardRules(), sink, now);
      return roster;
    },
    get requests() {
      requests ??= new TeamRequests(
        () => state.requests,
        () => boardRules().roster,
        sink,
      );
      return requests;
    },
    emit: sink.emit,
  };
  try {
    const value = fn(rules);
    if (isThenable(value)) {
      // What it settles with is nobody's: the transaction is refused whatever it does.
      value.then(undefined, () => {});
      throw new TeamError(
        'invalid-input',
        "A transaction's callback must be synchronous: it runs inside the store's lock. Await outside it.",
      );
    }
    return {
      value,
      changed: [...undo.previous.keys()],
      previous: undo.previous,
      drafts,
      undo: () => undo.undo(state),
    };
  } catch (error) {
    undo.undo(state);
    throw error;
  } finally {
    undo.sealed = true;
  }
}

/** A roster change's undo: the info and task list as they were. */
interface RosterBefore {
  readonly info: TeamInfo;
  readonly list: TaskListState;
}

/** The roster rules' hold on the state: the info's roster, and the task list's view of it. */
function rosterSlot(state: TeamState, recorder: ChangeRecorder, now: () => Date): RosterSlot {
  return {
    team: state.info.name,
    maxMembers: state.info.maxMembers,
    read: () => state.info.roster,
    write: (roster: Roster) => {
      const list = taskList(state);
      recorder.before('roster', { info: state.info, list } satisfies RosterBefore);
      state.info = { ...state.info, roster, updatedAt: now().toISOString() };
      state.blackboard.write(TASK_LIST_SECTION, { ...list, roster: activeRoster(roster) });
    },
    unread: (agent) =>
      state.bus
        .inbox(agent)
        .filter((message) => message.readAt === null)
        .map((message) => message.id),
  };
}

/** Stamps a commit's events with their team, run, time and place in the log. */
export function stampEvents(state: TeamState, drafts: readonly TeamEventDraft[], now: Date): TeamEvent[] {
  const timestamp = now.toISOString();
  const { name: team, runId } = state.info;
  // Written out, not spread: on Node 20 a spread with properties after it, once optimised,
  // gives every object a hidden class of its own (~250 bytes more for each event a log keeps).
  return drafts.map(
    (draft) =>
      ({ type: draft.type, data: draft.data, timestamp, team, runId, seq: ++state.eventSeq }) as TeamEvent,
  );
}
