import { USER } from '../../agent/participants.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import type { RequestRecord } from '../../requests/request-state.js';
import { answerRequest, type RequestAnswer } from '../../run/control.js';
import type { TeamRunHandle } from '../../run/handle.js';
import { runStatus } from '../../store/run-record.js';
import type { Team } from '../../team/team.js';
import { ApiError } from './api-error.js';
import type { StudioStore } from './studio-store.js';

/** A team of the file, as `GET /api/teams` shows it. */
export interface TeamSummary {
  readonly name: string;
  readonly lead: { readonly name: string; readonly maxTurns: number };
  readonly members: readonly {
    readonly name: string;
    readonly description: string;
    readonly maxTurns: number;
  }[];
}

/**
 * The runs the Studio acts on: those it started (in this process, through their handles)
 * and those of other processes (through the store, as `agent-teams send` does).
 */
export class StudioRuns {
  readonly #teams: Readonly<Record<string, Team>>;
  readonly #studio: StudioStore;
  readonly #handles = new Map<string, TeamRunHandle>();

  constructor(teams: Readonly<Record<string, Team>>, studio: StudioStore) {
    this.#teams = teams;
    this.#studio = studio;
  }

  teams(): TeamSummary[] {
    return Object.values(this.#teams).map((team) => ({
      name: team.name,
      lead: { name: team.lead.name, maxTurns: team.turnLimits.lead },
      members: team.members.map((member) => ({
        name: member.name,
        description: member.description ?? '',
        maxTurns: team.turnLimits.member,
      })),
    }));
  }

  /** Starts a run of one of the file's teams on the Studio's store; answers its id once it is open. */
  async start(teamName: string, input: string): Promise<string> {
    const team = Object.values(this.#teams).find((candidate) => candidate.name === teamName);
    if (!team) {
      const names = Object.values(this.#teams).map((candidate) => candidate.name);
      throw new ApiError(
        400,
        names.length
          ? `No team "${teamName}" in the Studio's file; its teams: ${names.join(', ')}.`
          : 'The Studio was started without a team file: give one (agent-teams studio <file>) to start runs.',
      );
    }
    const handle = await team.withStore(this.#studio.store).start({ input });
    this.#handles.set(handle.runId, handle);
    // The run's end is in its log; a failed run must not become an unhandled rejection here.
    handle.result.catch(() => {});
    return handle.runId;
  }

  /** A message from the person to an agent of a going run (`lead`, `everyone` too). */
  async send(runId: string, to: string, content: string): Promise<{ id: string; to: readonly string[] }> {
    const { team } = await this.#going(runId);
    const handle = this.#handles.get(runId);
    const sent = handle
      ? await handle.send(to, content)
      : await this.#studio.store.transact(team, ({ mailbox }) => mailbox.send(USER, to, content));
    return { id: sent.id, to: sent.to };
  }

  /** The person's answer to a request of a going run; the first answer counts. */
  async respond(runId: string, requestId: string, answer: RequestAnswer): Promise<RequestRecord> {
    const { team } = await this.#going(runId);
    const handle = this.#handles.get(runId);
    // A run of another process reads the answer from the store, as after `agent-teams respond`.
    return handle
      ? handle.respond(requestId, answer)
      : answerRequest(this.#studio.store, team, requestId, answer, USER);
  }

  /** Shuts a member of a run this Studio started down; the lifecycle lives in the run's process. */
  async shutdown(runId: string, member: string, force: boolean): Promise<void> {
    const handle = await this.#own(runId, 'shut its members down there', 'shut down');
    await handle.shutdown(member, { force, reason: 'shut down from the Studio' });
  }

  /** Stops a run this Studio started; a run of another process is stopped there. */
  async abort(runId: string, reason: string | undefined): Promise<void> {
    const handle = await this.#own(runId, 'stop it there (Ctrl-C)', 'stop');
    handle.abort(reason ?? 'aborted from the Studio');
  }

  /** The handle of a going run this Studio started; 409 naming the process of any other. */
  async #own(runId: string, there: string, nothing: string): Promise<TeamRunHandle> {
    const { runner } = await this.#going(runId);
    const handle = this.#handles.get(runId);
    if (handle) return handle;
    throw new ApiError(
      409,
      runner
        ? `The run ${runId} runs in process ${runner.pid} on ${runner.host}: ${there}.`
        : `No process runs ${runId}: it was cut off, and there is nothing to ${nothing}.`,
    );
  }

  /**
   * Aborts every run this Studio started that still goes, and waits for their ends, at most
   * `graceMs`: a turn that does not heed the abort must not keep the Studio from stopping
   * (its run is then cut off, and resumable like any crashed run). Answers whether all ended.
   */
  async stopAll(graceMs: number): Promise<boolean> {
    const handles = [...this.#handles.values()];
    for (const handle of handles) handle.abort('the Studio stopped');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    const ended = Promise.allSettled(handles.map((handle) => handle.result)).then(() => true);
    const stopped = await Promise.race([ended, grace]);
    clearTimeout(timer);
    return stopped;
  }

  /** The run's team and runner, if it is going; 404 for an unknown run, 409 for one that ended. */
  async #going(runId: string) {
    const record = await this.#studio.findRun(runId);
    if (!record) throw new ApiError(404, `No run ${runId} in the store.`);
    const events: TeamEvent[] = await this.#studio.store.readEvents(runId);
    const status = runStatus(events);
    if (status !== 'running') throw new ApiError(409, `The run ${runId} has ended (${status}).`);
    const info = await this.#studio.store.getTeam(record.team);
    if (info?.runId !== runId)
      throw new ApiError(409, `The run ${runId} is no longer its team's current run.`);
    return { team: record.team, runner: record.runner };
  }
}
