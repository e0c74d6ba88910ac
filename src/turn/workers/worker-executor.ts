import type { ReportedOutcome, TeamEvent } from '../../events/team-event-map.js';
import type { TurnDescriptor } from '../../fold/turn-descriptor.js';
import type { PostgresStore } from '../../store/postgres/postgres-store.js';
import { encodedValue } from '../../store/postgres/stored-json.js';
import type { TeamRules, TransactOptions } from '../../store/team-store.js';
import type { TurnExecutor } from '../executor.js';
import type { TurnOutcome } from '../turn-outcome.js';
import { ensureQueues, JOB_SECONDS, type OpenBoss, openBoss, queueOf, TURN_RETRIES } from './turn-queue.js';

const keyOf = (agent: string, turn: number) => `${agent}#${turn}`;

/** How often the run's process looks for turns whose worker let its lease run out. */
const SUPERVISE_MS = 2_000;

/**
 * Runs a run's turns on worker processes (`agent-teams worker`): a turn's start commits, in
 * the same database transaction, its descriptor as a pg-boss job and its agent's fence; a
 * worker runs it (renewing its lease on the fence) and writes how it ended to the run's log
 * (`team:turn-outcome`), which the run's loop folds like any event and hands back here. A
 * turn whose worker died (its lease ran out) is queued again at once, so it is redone within
 * the lease whatever the turn's timeout; after `TURN_RETRIES` more attempts it fails as lost.
 */
export class WorkerExecutor implements TurnExecutor {
  readonly #store: PostgresStore;
  readonly #boss: OpenBoss;
  readonly #waiting = new Map<string, { turn: TurnDescriptor; settle: (outcome: TurnOutcome) => void }>();
  /** Outcomes folded before their turn's `execute` was called (a fast worker). */
  readonly #early = new Map<string, ReportedOutcome>();
  #supervisor: NodeJS.Timeout | undefined;
  #supervising: Promise<void> | undefined;

  private constructor(store: PostgresStore, boss: OpenBoss) {
    this.#store = store;
    this.#boss = boss;
  }

  /**
   * Connects to pg-boss and makes the team's queues; `onError` is told of each pg-boss error
   * (the run's process logs it as `team:error`).
   */
  static async open(store: PostgresStore, team: string, onError: (error: Error) => void) {
    const boss = await openBoss(store, { supervise: false, connections: 2, onError });
    try {
      await ensureQueues(boss.boss, team);
    } catch (error) {
      await boss.stop();
      throw error;
    }
    return new WorkerExecutor(store, boss);
  }

  commitStart<T>(
    team: string,
    start: (rules: TeamRules) => T,
    turnsOf: (value: T) => readonly TurnDescriptor[],
    options: TransactOptions = {},
  ): Promise<T> {
    return this.#store.transactWith(team, start, {
      ...options,
      alongside: async (tx, value) => {
        for (const turn of turnsOf(value)) {
          await tx.setFence(turn.runId, turn.agent, turn.turn);
          await this.#queue(turn, tx);
        }
      },
    });
  }

  execute(turn: TurnDescriptor, signal: AbortSignal): Promise<TurnOutcome> {
    const key = keyOf(turn.agent, turn.turn);
    const early = this.#early.get(key);
    if (early) {
      this.#early.delete(key);
      return Promise.resolve(early);
    }
    return new Promise((resolve) => {
      const abandon = () => {
        if (!this.#waiting.delete(key)) return;
        // The worker still running it may write nothing more; then the run goes on without it.
        this.#store.dropFence(turn.team, turn.runId, turn.agent).then(
          () => resolve({ kind: 'aborted' }),
          () => resolve({ kind: 'aborted' }),
        );
      };
      this.#waiting.set(key, {
        turn,
        settle: (outcome) => {
          signal.removeEventListener('abort', abandon);
          resolve(outcome);
        },
      });
      this.#supervise();
      if (signal.aborted) abandon();
      else signal.addEventListener('abort', abandon, { once: true });
    });
  }

  notice(event: TeamEvent): void {
    if (event.type !== 'team:turn-outcome') return;
    const key = keyOf(event.data.member, event.data.turn);
    const waiting = this.#waiting.get(key);
    if (!waiting) {
      this.#early.set(key, event.data.outcome);
      return;
    }
    this.#waiting.delete(key);
    waiting.settle(event.data.outcome);
  }

  /** Disconnects from pg-boss (the run has ended). */
  async close(): Promise<void> {
    clearInterval(this.#supervisor);
    await this.#supervising;
    await this.#boss.stop();
  }

  #queue(
    turn: TurnDescriptor,
    tx: { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> },
  ) {
    // pg-boss keeps a job as jsonb: the descriptor's texts are encoded so any string survives.
    return this.#boss.boss.send(queueOf(turn.team), encodedValue({ ...turn }), {
      db: tx,
      expireInSeconds: JOB_SECONDS,
    });
  }

  /** Looks every `SUPERVISE_MS`, while turns wait, for those whose worker let its lease run out. */
  #supervise(): void {
    if (this.#supervisor) return;
    this.#supervisor = setInterval(() => {
      if (this.#waiting.size === 0 || this.#supervising) return;
      this.#supervising = this.#requeueLapsed()
        .catch(() => undefined) // the database is out of reach: looked at again at the next tick
        .finally(() => {
          this.#supervising = undefined;
        });
    }, SUPERVISE_MS);
    this.#supervisor.unref();
  }

  /**
   * Frees the fences whose lease ran out and, in the same transaction, queues each of those
   * turns again; a turn that has had its attempts fails as lost.
   */
  async #requeueLapsed(): Promise<void> {
    const [first] = this.#waiting.values();
    if (!first) return;
    const lost: TurnDescriptor[] = [];
    await this.#store.transactWith(first.turn.team, () => undefined, {
      alongside: async (tx) => {
        for (const lapsed of await tx.freeLapsed(first.turn.runId)) {
          const waiting = this.#waiting.get(keyOf(lapsed.agent, lapsed.turn));
          if (!waiting) continue;
          if (lapsed.attempts > TURN_RETRIES) lost.push(waiting.turn);
          else await this.#queue(waiting.turn, tx);
        }
      },
    });
    for (const turn of lost) {
      const key = keyOf(turn.agent, turn.turn);
      const error = `The turn was lost: ${TURN_RETRIES + 1} attempts at it on workers stopped renewing their lease.`;
      this.#waiting.get(key)?.settle({ kind: 'failed', error, delivered: [] });
      this.#waiting.delete(key);
    }
  }
}
