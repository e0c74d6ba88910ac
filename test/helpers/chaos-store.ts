import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ReadEventsOptions,
  RunListing,
  TeamEvent,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
} from 'agent-teams';

// The runtime must be correct whatever the timing of its store (DESIGN.md: "correctness
// never depends on timing"). This wrapper makes the timing vary, reproducibly by seed:
// every store call is held up a little before and after, and commits are announced late.
// Delays stay small (about 1 ms a call on average) because scenario suites run it on
// many seeds.

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1). Enough for test timing; not for anything else. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** How long one call is held up, before or after the inner store's answer. */
interface Pause {
  /** Microtask turns (`await Promise.resolve()`), 0 to 3. */
  readonly yields: number;
  /** A real timer, 0 to 5 ms, or none (most pauses have none). */
  readonly timerMs: number | undefined;
}

/** One store call's pauses, as the seed drew them. */
interface CallPauses {
  readonly method: keyof TeamStore;
  readonly before: Pause;
  readonly after: Pause;
}

/** A store whose timing varies by seed; what the seed decided is kept for inspection. */
export interface ChaosStore extends TeamStore {
  /** Each call's pauses, in call order. */
  readonly pauses: readonly CallPauses[];
  /** Each notification batch's delay in ms, in commit order. */
  readonly notificationDelays: readonly number[];
}

// A timer in about 1 pause of 7, of 2.5 ms on average (Node waits at least 1 ms, so ~3.5 ms):
// ~0.5 ms a pause, two pauses a call, ~1 ms a call.
const TIMER_CHANCE = 0.15;
const MAX_TIMER_MS = 5;
const MAX_YIELDS = 3;

function drawPause(random: () => number): Pause {
  const yields = Math.floor(random() * (MAX_YIELDS + 1));
  const timed = random() < TIMER_CHANCE;
  const ms = Math.floor(random() * (MAX_TIMER_MS + 1));
  return { yields, timerMs: timed ? ms : undefined };
}

async function hold(pause: Pause): Promise<void> {
  for (let turn = 0; turn < pause.yields; turn++) await Promise.resolve();
  if (pause.timerMs !== undefined) await sleep(pause.timerMs);
}

/**
 * One listener's late deliveries: each batch is due a random delay after it was committed,
 * but never before the batch ahead of it, so a listener sees every batch, in commit order.
 */
class LateListener {
  readonly #listener: TeamEventListener;
  readonly #queue: { events: readonly TeamEvent[]; due: number }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(listener: TeamEventListener) {
    this.#listener = listener;
  }

  push(events: readonly TeamEvent[], delayMs: number): void {
    if (this.#stopped) return;
    const behind = this.#queue.at(-1)?.due ?? 0;
    this.#queue.push({ events, due: Math.max(behind, performance.now() + delayMs) });
    this.#arm();
  }

  /** Unsubscribed: nothing pending is delivered. */
  stop(): void {
    this.#stopped = true;
    this.#queue.length = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    const head = this.#queue[0];
    if (this.#timer || !head) return;
    this.#timer = setTimeout(() => this.#deliver(), Math.max(0, head.due - performance.now()));
  }

  #deliver(): void {
    this.#timer = undefined;
    const head = this.#queue.shift();
    if (!head || this.#stopped) return;
    try {
      this.#listener(head.events);
    } catch (error) {
      // As the stores do: a throwing listener is reported, and later batches still arrive.
      console.error('agent-teams: a subscriber threw (chaos store):', error);
    }
    this.#arm();
  }
}

/**
 * Wraps a store so that its timing varies at random, reproducibly by `seed`: before and
 * after every async call, 0–3 microtask turns and sometimes a real timer of 0–5 ms; each
 * commit's events reach `subscribe` listeners 0–5 ms late (complete and in order).
 * `transact`'s callback is handed to the inner store untouched: it still runs synchronously
 * inside the inner store's lock. Test-only.
 *
 * A new method of `TeamStore` fails to compile here until it is forwarded (the class
 * implements the interface), so the wrapper never silently drops one.
 */
export function chaosStore(inner: TeamStore, seed: number): ChaosStore {
  return new Chaos(inner, seed);
}

class Chaos implements ChaosStore {
  readonly pauses: CallPauses[] = [];
  readonly notificationDelays: number[] = [];
  readonly #inner: TeamStore;
  // Two streams: calls draw in call order, notifications in commit order, so neither
  // sequence depends on how the other interleaves with it.
  readonly #callRandom: () => number;
  readonly #notifyRandom: () => number;

  constructor(inner: TeamStore, seed: number) {
    this.#inner = inner;
    this.#callRandom = mulberry32(seed);
    this.#notifyRandom = mulberry32(seed ^ 0x9e3779b9);
  }

  /** Runs one inner call between two pauses, drawn when the call is made. */
  async #step<T>(method: keyof TeamStore, call: () => Promise<T>): Promise<T> {
    const pauses = { method, before: drawPause(this.#callRandom), after: drawPause(this.#callRandom) };
    this.pauses.push(pauses);
    await hold(pauses.before);
    try {
      return await call();
    } finally {
      await hold(pauses.after);
    }
  }

  createTeam(name: string, setup: TeamSetup): Promise<TeamInfo> {
    return this.#step('createTeam', () => this.#inner.createTeam(name, setup));
  }

  getTeam(name: string): Promise<TeamInfo | undefined> {
    return this.#step('getTeam', () => this.#inner.getTeam(name));
  }

  listTeams(): Promise<TeamInfo[]> {
    return this.#step('listTeams', () => this.#inner.listTeams());
  }

  transact<T>(name: string, fn: (rules: TeamRules) => T): Promise<T> {
    return this.#step('transact', () => this.#inner.transact(name, fn));
  }

  startRun(name: string, options?: { fresh?: boolean }): Promise<TeamInfo> {
    return this.#step('startRun', () => this.#inner.startRun(name, options));
  }

  resumeRun(name: string): Promise<{ info: TeamInfo; events: TeamEvent[] } | undefined> {
    return this.#step('resumeRun', () => this.#inner.resumeRun(name));
  }

  leaveRun(name: string, runId: string): Promise<void> {
    return this.#step('leaveRun', () => this.#inner.leaveRun(name, runId));
  }

  listRuns(options?: { team?: string; runId?: string }): Promise<RunListing[]> {
    return this.#step('listRuns', () => this.#inner.listRuns(options));
  }

  readEvents(runId: string, options?: ReadEventsOptions): Promise<TeamEvent[]> {
    return this.#step('readEvents', () => this.#inner.readEvents(runId, options));
  }

  subscribe(name: string, listener: TeamEventListener): () => void {
    const late = new LateListener(listener);
    const unsubscribe = this.#inner.subscribe(name, (events) => {
      const delayMs = Math.floor(this.#notifyRandom() * (MAX_TIMER_MS + 1));
      this.notificationDelays.push(delayMs);
      late.push(events, delayMs);
    });
    return () => {
      unsubscribe();
      late.stop();
    };
  }

  close(): Promise<void> {
    return this.#step('close', () => this.#inner.close());
  }
}
