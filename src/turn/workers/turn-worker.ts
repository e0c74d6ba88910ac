import type PgBoss from 'pg-boss';
import { z } from 'zod';
import { loadPrices } from '../../agent/price-data.js';
import { TeamError } from '../../errors/index.js';
import { fn, parseOptions, satisfying, wholeNumber } from '../../errors/options-schema.js';
import type { ReportedOutcome } from '../../events/team-event-map.js';
import type { TurnDescriptor } from '../../fold/turn-descriptor.js';
import { DEFAULT_STORE_OUTAGE_MS, OutageWatch } from '../../store/outage-watch.js';
import { FENCE_RENEW_MS, type TurnFence } from '../../store/postgres/fences.js';
import { PostgresStore } from '../../store/postgres/postgres-store.js';
import { decodedValue } from '../../store/postgres/stored-json.js';
import type { TeamStore } from '../../store/team-store.js';
import type { TurnOutcome } from '../turn-outcome.js';
import { fencedStore } from './fenced-store.js';
import { ensureQueues, lostQueueOf, openBoss, queueOf, TURN_RETRIES } from './turn-queue.js';
import { MAX_WORKER_CONCURRENCY } from './worker-limits.js';

/** What a worker needs of a team: its name, and running one of its turns here (a `Team` does). */
export interface TurnRunner {
  /** The team's name, as its runs' turns carry it. */
  readonly name: string;
  /** Runs one turn of the team's run as described, against `store` when given. */
  executeTurn(
    turn: TurnDescriptor,
    options: { signal?: AbortSignal; store?: TeamStore },
  ): Promise<TurnOutcome>;
}

/** What `startTurnWorker` takes. */
export interface TurnWorkerOptions {
  /** The teams whose turns this worker runs (loaded from the same file as the run's). */
  readonly teams: readonly TurnRunner[];
  /** The store the runs live in; the worker queues and fences turns through it. */
  readonly store: PostgresStore;
  /** Turns of each team this worker runs at once: 1 to 64. Default 1. */
  readonly concurrency?: number;
  /** Told of each turn this worker takes and ends. */
  readonly onTurn?: (report: TurnReport) => void;
  /** Told of each error of pg-boss (a failed poll, a lost connection): it is tried again. Default: a line on stderr. */
  readonly onError?: (error: Error) => void;
}

/** A turn a worker took or ended, as `onTurn` is told. */
export interface TurnReport {
  /** The team's name. */
  readonly team: string;
  /** The turn. */
  readonly turn: TurnDescriptor;
  /** Which attempt at the turn, from 1 (0 when the turn was not this worker's to run). */
  readonly attempt: number;
  /** `stale`: the turn was no longer this attempt's to run (resumed, aborted or retried elsewhere); `lost`: every attempt's lease ran out and the turn failed. */
  readonly state: 'started' | 'done' | 'failed' | 'stale' | 'lost';
}

const isRunner = (team: unknown) =>
  typeof (team as Partial<TurnRunner> | null)?.name === 'string' &&
  typeof (team as Partial<TurnRunner> | null)?.executeTurn === 'function';

/** The schema of `TurnWorkerOptions`: every key of it (`satisfies` keeps the list whole), none other. */
const TURN_WORKER_SCHEMA = z.strictObject({
  teams: z
    .array(satisfying<TurnRunner>(isRunner, 'a team (a Team, or an object with a name and executeTurn)'))
    .min(1, { error: 'a list of at least one team' }),
  store: satisfying<PostgresStore>((store) => store instanceof PostgresStore, 'a PostgresStore'),
  concurrency: wholeNumber(1, MAX_WORKER_CONCURRENCY).optional(),
  onTurn: fn<(report: TurnReport) => void>('a function told of each turn').optional(),
  onError: fn<(error: Error) => void>('a function told of each error of pg-boss').optional(),
} satisfies Record<keyof TurnWorkerOptions, z.ZodType>);

/** A running worker: what `startTurnWorker` answers. */
export interface TurnWorker {
  /** Stops taking turns; turns in hand are failed back to pg-boss, which retries them elsewhere. */
  stop(): Promise<void>;
}

/**
 * Takes the teams' turns from pg-boss and runs each with the team's own definition, its
 * writes fenced to the attempt; reports how each ended in the run's log. A worker wakes on
 * the store's notifications of started turns, and polls pg-boss every 2 s besides.
 */
export async function startTurnWorker(options: TurnWorkerOptions): Promise<TurnWorker> {
  // Checked before pg-boss is started: a typo starts nothing.
  parseOptions(TURN_WORKER_SCHEMA, options, 'startTurnWorker');
  // The turns' answers are priced as they come: the price data loads now, in the background.
  loadPrices();
  const { store, teams } = options;
  const concurrency = options.concurrency ?? 1;
  const onError =
    options.onError ??
    ((error: Error) => process.stderr.write(`agent-teams worker: pg-boss: ${error.message}\n`));
  const { boss, stop } = await openBoss(store, {
    supervise: true,
    connections: concurrency * teams.length + 2,
    onError,
  });
  /**
   * Runs a job's store calls (its fence, its outcome) waiting for a store out of reach as
   * long as a run does by default; the turn's own wait as long as its team says
   * (`executeTurn`). A job that gives up fails back to pg-boss, which tries it again.
   */
  const patiently = <T>(job: () => Promise<T>) =>
    store.withOutageWatch(new OutageWatch(DEFAULT_STORE_OUTAGE_MS), job);
  const unsubscribes: (() => void)[] = [];
  try {
    for (const team of teams) {
      await ensureQueues(boss, team.name);
      const ids: string[] = [];
      const work = { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 2 } as const;
      for (let i = 0; i < concurrency; i++) {
        ids.push(
          await boss.work<TurnDescriptor>(queueOf(team.name), work, ([job]) =>
            patiently(() => runJob(team, job)),
          ),
        );
      }
      await boss.work<TurnDescriptor>(lostQueueOf(team.name), work, ([job]) =>
        patiently(() => reportLost(team, job)),
      );
      unsubscribes.push(
        store.subscribe(team.name, (events) => {
          if (events.some((event) => event.type === 'team:member-started'))
            for (const id of ids) boss.notifyWorker(id);
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const report = (team: TurnRunner, turn: TurnDescriptor, attempt: number, state: TurnReport['state']) =>
    options.onTurn?.({ team: team.name, turn, attempt, state });

  async function runJob(team: TurnRunner, job: PgBoss.JobWithMetadata<TurnDescriptor> | undefined) {
    if (!job) return;
    const turn = descriptorOf(team, job.data);
    const fence = await store.takeFence(team.name, { runId: turn.runId, agent: turn.agent, turn: turn.turn });
    if (!fence) return report(team, turn, 0, 'stale');
    report(team, turn, fence.attempt, 'started');
    const stale = new AbortController();
    // The attempt holds its turn while it renews its lease; once it cannot, another may take the turn.
    const renewal = setInterval(() => {
      store.renewFence(fence).then(
        (held) => {
          if (!held) stale.abort();
        },
        () => undefined, // the database is out of reach: tried again at the next tick
      );
    }, FENCE_RENEW_MS);
    const turnStore = fencedStore(store, fence, () => stale.abort());
    const outcome = await team
      .executeTurn(turn, { signal: stale.signal, store: turnStore })
      .finally(() => clearInterval(renewal));
    if (outcome.kind === 'aborted') return report(team, turn, fence.attempt, 'stale');
    const reported: ReportedOutcome =
      outcome.kind === 'done'
        ? outcome
        : {
            kind: 'failed',
            error: outcome.error,
            delivered: outcome.delivered,
            ...(outcome.unread ? { unread: outcome.unread } : {}),
            ...(outcome.fatal ? { fatal: true } : {}),
          };
    await writeOutcome(team, fence, reported);
    report(team, turn, fence.attempt, outcome.kind);
  }

  /** Every attempt's lease ran out: the turn failed, and the run is told so. */
  async function reportLost(team: TurnRunner, job: PgBoss.JobWithMetadata<TurnDescriptor> | undefined) {
    if (!job) return;
    const turn = descriptorOf(team, job.data);
    const fence = await store.takeFence(team.name, { runId: turn.runId, agent: turn.agent, turn: turn.turn });
    if (!fence) return;
    const error = `The turn was lost: ${TURN_RETRIES + 1} attempts at it on workers ran out of time.`;
    await writeOutcome(team, fence, { kind: 'failed', error, delivered: [] });
    report(team, turn, fence.attempt, 'lost');
  }

  async function writeOutcome(team: TurnRunner, fence: TurnFence, outcome: ReportedOutcome) {
    const data = { member: fence.agent, turn: fence.turn, outcome };
    await store
      .transactWith(team.name, ({ emit }) => emit({ type: 'team:turn-outcome', data }), {
        fence,
        alongside: (tx) => tx.finishFence(fence),
      })
      .catch((error: unknown) => {
        // A late attempt's outcome does not count; the attempt that holds the turn reports it.
        if (!(error instanceof TeamError && error.code === 'stale-turn')) throw error;
      });
  }

  return {
    async stop() {
      for (const unsubscribe of unsubscribes) unsubscribe();
      await stop();
    },
  };
}

function descriptorOf(team: TurnRunner, data: TurnDescriptor): TurnDescriptor {
  if (
    typeof data !== 'object' ||
    data === null ||
    data.team !== team.name ||
    typeof data.runId !== 'string'
  ) {
    throw new TeamError(
      'invalid-input',
      `A job on ${queueOf(team.name)} is not a turn of the team ${team.name}.`,
    );
  }
  return decodedValue(data);
}
