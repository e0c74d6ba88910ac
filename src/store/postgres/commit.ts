import { randomUUID } from 'node:crypto';
import type { TeamEvent } from '../../events/team-event-map.js';
import type { TeamState } from '../team-state.js';
import type { TeamRules } from '../team-store.js';
import { type Committed, runTransaction, stampEvents } from '../transaction.js';
import type { TurnFence } from './fences.js';
import type { Stamp } from './load.js';
import type { Cached, Done, Guess } from './locked.js';
import { writeCommit } from './write.js';

/** What turning a transaction's changes into a commit needs of the store. */
export interface CommitContext {
  readonly s: string;
  readonly channel: string;
  /** The store's token, named in its notifications. */
  readonly from: string;
  /** The backend pid of the store's own listening session, if it has one. */
  listenerPid(): number | null;
  now(): Date;
  /** After COMMIT: the events go to the subscribers, and to the caller's `committed`. */
  published(runId: string | null, events: TeamEvent[]): void;
}

/**
 * The commit of what a transaction changed on `state`, read at `row`: the events stamped, and
 * the statement that writes them (sent with the COMMIT, or alone as a guess with `token`).
 */
export function commitOf<T>(
  context: CommitContext,
  state: TeamState,
  row: Stamp,
  { value, changed, previous, drafts }: Omit<Committed<T>, 'undo'>,
  token: string | null,
  fence?: TurnFence,
): Done<T> & { readonly write: string; readonly events: readonly TeamEvent[] } {
  const events = stampEvents(state, drafts, context.now());
  const { runId, name } = state.info;
  const last = events.at(-1)?.seq;
  // Delivered at COMMIT, to the processes listening to the team; ids only, the log has the events.
  const notice =
    runId && last !== undefined
      ? {
          channel: context.channel,
          payload: JSON.stringify({ team: name, runId, seq: last, from: context.from }),
          listener: context.listenerPid(),
        }
      : undefined;
  const { statement, ...stamp } = writeCommit(
    context.s,
    row,
    state,
    { changed, previous },
    events,
    notice,
    token,
    fence,
  );
  return {
    value,
    next: { state, ...stamp },
    write: statement,
    events,
    after: () => context.published(runId, events),
  };
}

/**
 * `fn` done on the cached team, as a guess (see `LockedTeams.run`), which writes only while
 * `fence`'s attempt holds its turn, if it has one: `undefined`, the cache
 * as it was, when it must run under the lock instead — it threw (the cache may be behind:
 * the lock's run decides), changed nothing, or logs no event to know it by (no run).
 */
export function guessOf<T>(
  context: CommitContext,
  cached: Cached,
  fn: (rules: TeamRules) => T,
  fence: TurnFence | undefined,
): Guess<T> | undefined {
  const { state } = cached;
  const runId = state.info.runId;
  if (!runId) return undefined;
  let committed: Committed<T>;
  try {
    committed = runTransaction(state, fn, context.now);
  } catch {
    return undefined;
  }
  const seqBefore = state.eventSeq;
  const undo = () => {
    committed.undo();
    state.eventSeq = seqBefore;
  };
  if (committed.drafts.length === 0) {
    undo();
    return undefined;
  }
  const token = randomUUID();
  const done = commitOf(context, state, cached, committed, token, fence);
  const first = done.events[0] as TeamEvent;
  return { done, base: { version: cached.version, epoch: cached.epoch }, runId, seq: first.seq, token, undo };
}
