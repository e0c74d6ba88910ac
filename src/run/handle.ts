import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { profileOf } from '../agent/team-formation.js';
import type { NewTask, TeamTask } from '../board/task.js';
import { parseOptions } from '../errors/options-schema.js';
import { TeamError } from '../errors/team-error.js';
import type { TeamEvent } from '../events/team-event-map.js';
import type { TeamRunResult } from '../fold/run-result.js';
import { departed } from '../fold/run-state.js';
import type { SentMessage } from '../mailbox/message.js';
import type { RequestRecord } from '../requests/request-state.js';
import type { TeamStore } from '../store/team-store.js';
import type { TeamHooks } from '../tools/hooks.js';
import {
  abortRun,
  answerRequest,
  checkShutdownOptions,
  interruptMember,
  joinMember,
  type RequestAnswer,
  requestShutdown,
  type ShutdownOptions,
  sendAsUser,
} from './control.js';
import type { RunLoop } from './loop.js';
import { checkNewAgent } from './roster.js';
import {
  addTaskAsUser,
  assignTaskAsUser,
  deleteTaskAsUser,
  editTaskAsUser,
  type PersonTaskEdit,
} from './task-control.js';

/** What `run.events()` gives besides the logged events. */
export interface RunEventsOptions {
  /** The turns' text as the models write it (`team:text-delta`, live only). Default `false`. */
  deltas?: boolean;
}

const RUN_EVENTS_SCHEMA = z.strictObject({
  deltas: z.boolean().optional(),
} satisfies Record<keyof RunEventsOptions, z.ZodType>);

/**
 * A run while it goes: its id, its result, its events, and the person's hand on it. Each
 * control is a commit to the team's store, the same one `agent-teams send`, `respond`,
 * `shutdown` and `abort` or the Studio make from another process; the run's loop acts on it
 * when it folds it.
 *
 * @example
 * const run = await team.start({ input: 'Write a short article about tides' });
 * for await (const event of run.events()) console.log(event.type);
 * const result = await run.result;
 */
export class TeamRunHandle {
  /** The run's id, to resume or inspect it by. */
  readonly runId: string;
  /** Settles when the run ends: its result, or the error that failed it. */
  readonly result: Promise<TeamRunResult>;
  readonly #loop: RunLoop;
  readonly #store: TeamStore;
  readonly #team: string;
  /** The team's hooks: `onTaskCreated` judges the person's tasks as it does the agents'. */
  readonly #hooks: TeamHooks;
  #ended = false;

  /** @internal The run's loop makes it; a program gets it from `team.start` or `team.resume`. */
  constructor(
    loop: RunLoop,
    result: Promise<TeamRunResult>,
    store: TeamStore,
    team: string,
    hooks: TeamHooks,
  ) {
    this.#loop = loop;
    this.runId = loop.runId;
    this.result = result;
    this.#store = store;
    this.#team = team;
    this.#hooks = hooks;
    const ended = () => {
      this.#ended = true;
    };
    result.then(ended, ended);
  }

  /**
   * Every event of the run from its first, then live; ends after `team:complete`. With
   * `deltas: true`, also the text of the turns as the models write it (`team:text-delta`,
   * never logged): the turns that start while such a reader reads stream their model calls
   * for it (without one, each step is a plain call, which costs less).
   */
  events(options: RunEventsOptions = {}): AsyncIterableIterator<TeamEvent> {
    parseOptions(RUN_EVENTS_SCHEMA, options, 'run.events()');
    return this.#loop.events.read(options.deltas === true);
  }

  /**
   * Sends a message from the person running the team (sender `user`, `fromAgent: false`) to
   * an agent, `lead` or `everyone`. It wakes its reader like any message.
   */
  async send(to: string, content: string): Promise<SentMessage> {
    return this.#committed(() => sendAsUser(this.#store, this.#team, to, content));
  }

  /**
   * Interrupts a member (Escape, then type): `message` is sent to it from the person, its
   * running turn is stopped at once (its model call cancelled, its task kept), and its next
   * turn starts with the message. Settles once the interrupt is committed.
   */
  async interrupt(member: string, message: string): Promise<SentMessage> {
    return this.#committed(() => interruptMember(this.#store, this.#team, member, message));
  }

  /**
   * Answers a request (a plan, a permission, a tool call) as the person (`by: 'user'`): any
   * open request of the run, one addressed to the lead too. The first answer counts: a
   * request already answered or expired is refused with `request-closed`.
   */
  async respond(requestId: string, answer: RequestAnswer): Promise<RequestRecord> {
    return this.#committed(() => answerRequest(this.#store, this.#team, requestId, answer));
  }

  /**
   * Shuts a member down. Graceful (the default): it is sent a `shutdown_request` and answers
   * in its next turn (`respond_to_shutdown`: approve, or reject with a reason; not rejecting
   * approves), shutting down as that turn ends. `force`: its running turn is stopped at once
   * and it shuts down. Either way its tasks go back to the list, the lead gets an
   * `idle_notification`, messages to it are refused, and the run goes on with the others.
   * Settles once the request is committed (graceful) or the member is shut down (`force`).
   */
  async shutdown(member: string, options: ShutdownOptions = {}): Promise<void> {
    const checked = checkShutdownOptions(options);
    await this.#committed(() => requestShutdown(this.#store, this.#team, member, checked));
    if (checked.force) await this.#departed(member);
  }

  /** A member joins the run: it is on the roster (and the store's) and takes tasks like the others. */
  async addMember(agent: Agent): Promise<void> {
    const joining = checkNewAgent(agent);
    // Its model is resolved first: a missing key is an error before the roster changes.
    this.#loop.join(joining);
    const member = { name: joining.name, instructions: joining.instructions, ...profileOf(joining) };
    await this.#committed(() => joinMember(this.#store, this.#team, member));
  }

  /**
   * A member leaves the run: its running turn is stopped, its tasks go back to the list, its
   * unread messages stay in its inbox (the archive; `team:member-shutdown` lists them).
   * Settles once it has left.
   */
  async removeMember(name: string): Promise<void> {
    const removal = { force: true, reason: null, removed: true };
    await this.#committed(() => requestShutdown(this.#store, this.#team, name, removal));
    await this.#departed(name);
  }

  /**
   * The person puts a task on the list (created by `user`): members take it like any task.
   * The same rules as the lead's `create_task` apply, the team's `onTaskCreated` hook too: a
   * task it rejects is never created (`hook-rejected`, with its feedback).
   */
  async addTask(task: NewTask): Promise<TeamTask> {
    return this.#committed(() => addTaskAsUser(this.#store, this.#team, task, this.#hooks));
  }

  /**
   * The person edits a pending task: its title, description, dependencies (`addDependsOn`,
   * `removeDependsOn`; a cycle, an unknown or a deleted task is refused) and assignee, in one
   * commit. A task a member works on is refused (`task-in-progress`).
   */
  async editTask(taskId: string, edit: PersonTaskEdit): Promise<TeamTask> {
    return this.#committed(() => editTaskAsUser(this.#store, this.#team, taskId, edit));
  }

  /**
   * The person gives a pending task to a member (or to another one); both are told. `null`
   * takes a task back to the list, unassigned, as the lead's release does: a pending task
   * loses its assignee, one in progress its member, who is told it is no longer its to do.
   */
  async assignTask(taskId: string, member: string | null): Promise<TeamTask> {
    return this.#committed(() => assignTaskAsUser(this.#store, this.#team, taskId, member));
  }

  /**
   * The person deletes a task, with the reason: it is kept as `deleted`, never worked on and
   * not open work (the run can end without it); the tasks that waited for it no longer do,
   * and their members and the lead are told. Refused while a member holds it.
   */
  async deleteTask(taskId: string, reason: string): Promise<TeamTask> {
    return this.#committed(() => deleteTaskAsUser(this.#store, this.#team, taskId, reason));
  }

  /** Stops the run cleanly: turns stop, nothing is left in progress, `stopReason: 'aborted'`. */
  abort(reason?: unknown): void {
    if (this.#ended) return; // over already: nothing to stop
    // Committed like any control; a store that cannot take it stops the run in this process all the same.
    abortRun(this.#store, this.#team, reason).then(
      () => this.#loop.post({ kind: 'commits' }),
      () => this.#loop.post({ kind: 'abort', reason }),
    );
  }

  /** The control's commit, then a wake-up of the loop (the store's notice may come later). */
  async #committed<T>(control: () => Promise<T>): Promise<T> {
    if (this.#ended) {
      throw new TeamError('run-ended', `The run ${this.runId} has ended: it takes no more changes.`, {
        details: { runId: this.runId },
      });
    }
    const value = await control();
    this.#loop.post({ kind: 'commits' });
    return value;
  }

  #departed(member: string): Promise<void> {
    return this.#loop.until((state) => {
      const agent = state.agents.get(member);
      return agent !== undefined && departed(agent);
    });
  }
}
