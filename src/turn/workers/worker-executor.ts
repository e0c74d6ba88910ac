import type PgBoss from 'pg-boss';
import type { ReportedOutcome, TeamEvent } from '../../events/team-event-map.js';
import type { TurnDescriptor } from '../../fold/turn-descriptor.js';
import type { PostgresStore } from '../../store/postgres/postgres-store.js';
import type { TeamRules } from '../../store/team-store.js';
import type { TurnExecutor } from '../executor.js';
import type { TurnOutcome } from '../turn-outcome.js';
import { ensureQueues, leaseSeconds, openBoss, queueOf } from './turn-queue.js';

const keyOf = (agent: string, turn: number) => `${agent}#${turn}`;

/**
 * Runs a run's turns on worker processes (`agent-teams worker`): a turn's start commits, in
 * the same database transaction, its descriptor as a pg-boss job and its agent's fence; a
 * worker runs it and writes how it ended to the run's log (`team:turn-outcome`), which the
 * run's loop folds like any event and hands back here.
 */
export class WorkerExecutor implements TurnExecutor {
  readonly #store: PostgresStore;
  readonly #boss: PgBoss;
  readonly #timeoutOf: (agent: string) => number;
  readonly #waiting = new Map<string, (outcome: TurnOutcome) => void>();
  /** Outcomes folded before their turn's `execute` was called (a fast worker). */
  readonly #early = new Map<string, ReportedOutcome>();

  private constructor(store: PostgresStore, boss: PgBoss, timeoutOf: (agent: string) => number) {
    this.#store = store;
    this.#boss = boss;
    this.#timeoutOf = timeoutOf;
  }

  /** Connects to pg-boss and makes the team's queues. `timeoutOf` is an agent's turn bound in ms. */
  static async open(store: PostgresStore, team: string, timeoutOf: (agent: string) => number) {
    const boss = await openBoss(store, { supervise: false, connections: 2 });
    await ensureQueues(boss, team);
    return new WorkerExecutor(store, boss, timeoutOf);
  }

  commitStart<T>(
    team: string,
    start: (rules: TeamRules) => T,
    turnOf: (value: T) => TurnDescriptor | undefined,
  ): Promise<T> {
    return this.#store.transactWith(team, start, {
      alongside: async (tx, value) => {
        const turn = turnOf(value);
        if (!turn) return;
        await tx.setFence(turn.runId, turn.agent, turn.turn);
        const expireInSeconds = leaseSeconds(this.#timeoutOf(turn.agent));
        await this.#boss.send(queueOf(team), { ...turn }, { db: tx, expireInSeconds });
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
      this.#waiting.set(key, (outcome) => {
        signal.removeEventListener('abort', abandon);
        resolve(outcome);
      });
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
    waiting(event.data.outcome);
  }

  /** Disconnects from pg-boss (the run has ended). */
  async close(): Promise<void> {
    await this.#boss.stop({ graceful: false, close: true, wait: true });
  }
}
