import type { Budget } from '../agent/budget.js';
import type { TeamEmitter } from '../events/team-emitter.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamStore } from '../store/team-store.js';
import type { LiveSink, TurnExecutor } from '../turn/executor.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import type { TeamSettings } from './team-settings.js';

// What a run's loop (loop.ts) is made with, and what it reacts to.

export interface LoopConfig {
  readonly settings: TeamSettings;
  readonly store: TeamStore;
  readonly emitter: TeamEmitter;
  readonly input: string;
  readonly fresh: boolean;
  readonly threadId: string | null;
  /** What the run may spend (the run's own budget, or the team's). */
  readonly budget: Budget | undefined;
  /**
   * The executor of the run's turns, given whether running turns should stop after their
   * current step (a budget was reached), and where live-only events go (and whether anyone
   * watches for them).
   */
  readonly executor: (halt: () => boolean, live: LiveSink) => TurnExecutor;
}

/** What the loop reacts to, one at a time. */
export type LoopInput =
  /**
   * Something was committed: catch up from the log. `lastSeq`, when given, is the last of the
   * run's events the commit logged: a commit every step since has seen needs no step again.
   */
  | { readonly kind: 'commits'; readonly lastSeq?: number }
  | { readonly kind: 'turn-ended'; readonly turn: TurnDescriptor; readonly outcome: TurnOutcome }
  /** A stop that could not be committed (the store failed): the run stops here all the same. */
  | { readonly kind: 'abort'; readonly reason: unknown }
  /** The store stayed out of reach for the team's `storeOutageMs`: the run fails here (`store-unavailable`). */
  | { readonly kind: 'store-unavailable'; readonly error: unknown }
  /** The time the run waited for came (a request's expiry, the time budget): look again. */
  | { readonly kind: 'tick' };
