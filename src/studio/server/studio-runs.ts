import { Agent } from '../../agent/agent.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import type { TeamMessage } from '../../mailbox/message.js';
import type { RequestRecord } from '../../requests/request-state.js';
import {
  abortRun,
  answerRequest,
  interruptMember,
  joinMember,
  type RequestAnswer,
  requestShutdown,
  requireLiveRun,
  sendAsUser,
} from '../../run/control.js';
import type { TeamRunHandle } from '../../run/handle.js';
import { resumableRun } from '../../run/resumable-run.js';
import { readUserInbox } from '../../run/user-inbox.js';
import { canResume, runStatus, runStatusOf } from '../../store/run-record.js';
import type { Team } from '../../team/team.js';
import type { TeamHooks } from '../../tools/hooks.js';
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

/** A member the page adds to a run: its name and instructions, its model (`provider/model`) and description. */
export interface NewMember {
  readonly name: string;
  readonly instructions: string;
  readonly model?: string | undefined;
  readonly description?: string | undefined;
}

/** A page's reader of a run's live text. */
type Watcher = (event: TeamEvent) => void;

/** A run this Studio runs: its handle and its team object (a resume brings new ones). */
interface Running {
  handle: TeamRunHandle;
  team: Team;
  /** Stops passing the team's live text on to the run's watchers. */
  unlisten: () => void;
}

/**
 * The runs the Studio acts on: every going run of its store. Each action is a control of the
 * run (a commit its process folds, see src/run/control.ts), so it acts the same on a run this
 * Studio started (through its handle) and on one `agent-teams run` runs in another shell.
 */
export class StudioRuns {
  readonly #teams: Readonly<Record<string, Team>>;
  readonly #studio: StudioStore;
  /** By run id; a resumed run's entry is replaced by its new handle's. */
  readonly #running = new Map<string, Running>();
  /** The pages' readers of each run's live text, by run id, whoever runs the run now. */
  readonly #watchers = new Map<string, Set<Watcher>>();

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
    const team = this.#teamNamed(teamName);
    if (!team) {
      const names = Object.values(this.#teams).map((candidate) => candidate.name);
      throw new ApiError(
        400,
        names.length
          ? `No team "${teamName}" in the Studio's file; its teams: ${names.join(', ')}.`
          : 'The Studio was started without a team file: give one (agent-teams studio <file>) to start runs.',
      );
    }
    return this.#run(team, { input, fresh: true });
  }

  /**
   * Continues a run that was interrupted (its process died), aborted or failed, in this
   * Studio's process, as `agent-teams resume` does: the same input, `fresh: false`. Only the
   * team's last run can go on, and only with the team from the Studio's file; 409 with the
   * reason otherwise.
   */
  async resume(runId: string): Promise<void> {
    const record = await this.#studio.findRun(runId);
    if (!record) throw new ApiError(404, `No run ${runId} in the store.`);
    const events: TeamEvent[] = await this.#studio.store.readEvents(runId);
    const status = runStatusOf(events, record.live);
    if (status === 'running')
      throw new ApiError(409, `The run ${runId} is running: there is nothing to resume.`);
    if (!canResume(events)) {
      throw new ApiError(409, `The run ${runId} finished (${status}): start a new run instead.`);
    }
    const team = this.#teamNamed(record.team);
    if (!team) {
      throw new ApiError(
        409,
        `The Studio's file has no team "${record.team}": resume the run with agent-teams resume <file> --team ${record.team}.`,
      );
    }
    const last = await resumableRun(this.#studio.store, team.name);
    if (last?.runId !== runId) {
      throw new ApiError(409, `The run ${runId} is no longer its team's last run: only that one can go on.`);
    }
    await this.#run(team, { input: last.input, fresh: false });
  }

  /**
   * A page's reader of a run's live text (`team:text-delta`: never logged, so only of a run
   * this Studio runs) until the answered function is called.
   */
  watch(runId: string, watcher: Watcher): () => void {
    const watchers = this.#watchers.get(runId) ?? new Set();
    this.#watchers.set(runId, watchers);
    watchers.add(watcher);
    return () => {
      watchers.delete(watcher);
      if (watchers.size === 0) this.#watchers.delete(runId);
    };
  }

  /**
   * Starts (or, not `fresh`, resumes) a run of `team` on the Studio's store, and keeps
   * its handle; answers its id.
   *
   * Its live text is listened to from its start, so its turns stream (a turn decides as it
   * starts): the page that started or resumed it opens its view a moment later, and a turn
   * begun before that page listened would otherwise show nothing until it ended.
   */
  async #run(fileTeam: Team, options: { input: string; fresh: boolean }): Promise<string> {
    const team = fileTeam.withStore(this.#studio.store);
    const unlisten = team.on('team:text-delta', (event) => {
      const watchers = event.runId === null ? undefined : this.#watchers.get(event.runId);
      for (const watcher of watchers ?? []) watcher(event);
    });
    const handle = await team.start(options).catch((error: unknown) => {
      unlisten();
      throw error;
    });
    // A resumed run's earlier handle and team are done with.
    this.#running.get(handle.runId)?.unlisten();
    this.#running.set(handle.runId, { handle, team, unlisten });
    // The run's end is in its log; a failed run must not become an unhandled rejection here.
    handle.result.catch(() => {});
    return handle.runId;
  }

  /** A message from the person to an agent of a going run (`lead`, `everyone` too). */
  async send(runId: string, to: string, content: string): Promise<{ id: string; to: readonly string[] }> {
    const { team } = await this.#going(runId);
    const handle = this.#running.get(runId)?.handle;
    const sent = handle
      ? await handle.send(to, content)
      : await sendAsUser(this.#studio.store, team, to, content);
    return { id: sent.id, to: sent.to };
  }

  /** The person read their inbox in the run's team: every message in it, the unread ones marked read. */
  async readInbox(runId: string): Promise<readonly TeamMessage[]> {
    const { team } = await this.#going(runId);
    return readUserInbox(this.#studio.store, team);
  }

  /** The person's answer to a request of a going run; the first answer counts. */
  async respond(runId: string, requestId: string, answer: RequestAnswer): Promise<RequestRecord> {
    const { team } = await this.#going(runId);
    const handle = this.#running.get(runId)?.handle;
    return handle
      ? handle.respond(requestId, answer)
      : answerRequest(this.#studio.store, team, requestId, answer);
  }

  /** Interrupts a member of a going run, whichever process runs it: its turn stops, the message comes first. */
  async interrupt(
    runId: string,
    member: string,
    message: string,
  ): Promise<{ id: string; to: readonly string[] }> {
    const { team } = await this.#going(runId);
    const handle = this.#running.get(runId)?.handle;
    const sent = handle
      ? await handle.interrupt(member, message)
      : await interruptMember(this.#studio.store, team, member, message);
    return { id: sent.id, to: sent.to };
  }

  /** Shuts a member of a going run down: asked (graceful), or its turn cut at once (`force`). */
  async shutdown(runId: string, member: string, force: boolean): Promise<void> {
    const { team } = await this.#going(runId);
    const reason = 'shut down from the Studio';
    const handle = this.#running.get(runId)?.handle;
    if (handle) await handle.shutdown(member, { force, reason });
    else await requestShutdown(this.#studio.store, team, member, { force, reason });
  }

  /** Stops a going run, whichever process runs it (one whose process died has nobody to stop: `not-live`). */
  async abort(runId: string, reason: string | undefined): Promise<void> {
    const { team } = await this.#going(runId);
    await requireLiveRun(this.#studio.store, team, runId);
    const why = reason ?? 'aborted from the Studio';
    const handle = this.#running.get(runId)?.handle;
    if (handle) handle.abort(why);
    else await abortRun(this.#studio.store, team, why);
  }

  /**
   * A member joins a going run. Its model is a `provider/model` string the run's process
   * resolves (default: the lead's, when the Studio's file has the team and it names one).
   */
  async addMember(runId: string, member: NewMember): Promise<{ name: string; model: string }> {
    const { team } = await this.#going(runId);
    const lead = this.#teamNamed(team)?.lead.model;
    const model = member.model ?? (typeof lead === 'string' ? lead : undefined);
    if (!model) {
      throw new ApiError(400, 'POST /api/runs/:runId/members needs model (provider/model) for this team.');
    }
    const description = member.description ?? '';
    const handle = this.#running.get(runId)?.handle;
    if (handle) {
      const { name, instructions } = member;
      await handle.addMember(
        new Agent({ name, instructions, model, ...(description ? { description } : {}) }),
      );
    } else {
      const joining = {
        name: member.name,
        instructions: member.instructions,
        model,
        description,
        mode: 'default',
      };
      await joinMember(this.#studio.store, team, joining);
    }
    return { name: member.name, model };
  }

  /** A member leaves a going run: its turn is cut, its tasks go back to the list. */
  async removeMember(runId: string, name: string): Promise<void> {
    const { team } = await this.#going(runId);
    const handle = this.#running.get(runId)?.handle;
    if (handle) await handle.removeMember(name);
    else await requestShutdown(this.#studio.store, team, name, { force: true, reason: null, removed: true });
  }

  /** The hooks of the Studio's file's team of this name, if it has one: they judge the person's tasks. */
  hooksOf(team: string): TeamHooks | undefined {
    return this.#teamNamed(team)?.hooks;
  }

  #teamNamed(name: string): Team | undefined {
    return Object.values(this.#teams).find((candidate) => candidate.name === name);
  }

  /**
   * Aborts every run this Studio started that still goes, and waits for their ends, at most
   * `graceMs`: a turn that does not heed the abort must not keep the Studio from stopping
   * (its run is then cut off, and resumable like any crashed run). Answers whether all ended.
   */
  async stopAll(graceMs: number): Promise<boolean> {
    const handles = [...this.#running.values()].map((running) => running.handle);
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

  /** The run's team, if it is going; 404 for an unknown run, 409 for one that ended. */
  async #going(runId: string) {
    const record = await this.#studio.findRun(runId);
    if (!record) throw new ApiError(404, `No run ${runId} in the store.`);
    const events: TeamEvent[] = await this.#studio.store.readEvents(runId);
    const status = runStatus(events);
    if (status !== 'running') throw new ApiError(409, `The run ${runId} has ended (${status}).`);
    const info = await this.#studio.store.getTeam(record.team);
    if (info?.runId !== runId)
      throw new ApiError(409, `The run ${runId} is no longer its team's current run.`);
    return { team: record.team };
  }
}
