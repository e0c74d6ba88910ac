import type { Agent } from '../agent/agent.js';
import { USER } from '../agent/participants.js';
import type { TeamEvent } from '../events/team-event-map.js';
import type { TeamRunResult } from '../fold/run-result.js';
import type { SentMessage } from '../mailbox/message.js';
import type { RequestRecord } from '../requests/request-state.js';
import type { TeamStore } from '../store/team-store.js';
import { answerRequest, type RequestAnswer } from '../tools/answer-request.js';
import type { RunLoop } from './loop.js';
import { checkNewAgent } from './roster.js';
import type { Later, Lifecycle, ShutdownOptions } from './shutdown.js';

/**
 * A run while it goes: its id, its result, its events, and the person's hand on it.
 *
 * @example
 * const run = await team.start({ input: 'Write a short article about tides' });
 * for await (const event of run.events()) console.log(event.type);
 * const result = await run.result;
 */
export class TeamRunHandle {
  readonly runId: string;
  /** Settles when the run ends: its result, or the error that failed it. */
  readonly result: Promise<TeamRunResult>;
  readonly #loop: RunLoop;
  readonly #store: TeamStore;
  readonly #team: string;

  constructor(loop: RunLoop, result: Promise<TeamRunResult>, store: TeamStore, team: string) {
    this.#loop = loop;
    this.runId = loop.runId;
    this.result = result;
    this.#store = store;
    this.#team = team;
  }

  /** Every event of the run from its first, then live; ends after `team:complete`. */
  events(): AsyncIterableIterator<TeamEvent> {
    return this.#loop.events.read();
  }

  /**
   * Sends a message from the person running the team (sender `user`, `fromAgent: false`) to
   * an agent, `lead` or `everyone`. It wakes its reader like any message.
   */
  async send(to: string, content: string): Promise<SentMessage> {
    const sent = await this.#store.transact(this.#team, ({ mailbox }) => mailbox.send(USER, to, content));
    this.#loop.post({ kind: 'commits' });
    return sent;
  }

  /**
   * Answers a request (a plan, a permission, a tool call) as the person (`by: 'user'`): any
   * open request of the run, one addressed to the lead too. The first answer counts: a
   * request already answered or expired is refused with `request-closed`.
   */
  async respond(requestId: string, answer: RequestAnswer): Promise<RequestRecord> {
    const answered = await answerRequest(this.#store, this.#team, this.runId, requestId, answer, USER);
    this.#loop.post({ kind: 'commits' });
    return answered;
  }

  /**
   * Shuts a member down. Graceful (the default): it is sent a `shutdown_request` and answers
   * in its next turn (`respond_to_shutdown`: approve, or reject with a reason; not rejecting
   * approves), shutting down as that turn ends. `force`: its running turn is stopped at once
   * and it shuts down. Either way its tasks go back to the list, the lead gets an
   * `idle_notification`, messages to it are refused, and the run goes on with the others.
   * Settles once the request is sent (graceful) or the member is shut down (`force`).
   */
  shutdown(member: string, options: ShutdownOptions = {}): Promise<void> {
    return this.#act((lifecycle) => lifecycle.shutdown(member, options));
  }

  /** A member joins the run: it is on the roster (and the store's) and takes tasks like the others. */
  addMember(agent: Agent): Promise<void> {
    return this.#act((lifecycle) => lifecycle.add(checkNewAgent(agent)));
  }

  /**
   * A member leaves the run: its running turn is stopped, its tasks go back to the list, its
   * unread messages stay in its inbox (the archive; `team:member-shutdown` lists them).
   */
  removeMember(name: string): Promise<void> {
    return this.#act((lifecycle) => lifecycle.remove(name));
  }

  /** Puts a change on the loop's queue (the loop is the one writer) and settles with it. */
  #act(act: (lifecycle: Lifecycle) => Promise<Later>): Promise<void> {
    return new Promise((resolve, reject) => {
      // The loop waits for the commit only; a turn that must end first settles the caller later.
      const run = async (lifecycle: Lifecycle) => {
        try {
          const later = await act(lifecycle);
          if (later) later.done.then(resolve, reject);
          else resolve();
        } catch (error) {
          reject(error);
        }
      };
      this.#loop.post({ kind: 'lifecycle', act: run });
    });
  }

  /** Stops the run cleanly: turns stop, nothing is left in progress, `stopReason: 'aborted'`. */
  abort(reason?: unknown): void {
    this.#loop.post({ kind: 'abort', reason });
  }
}
