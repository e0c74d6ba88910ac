/**
 * The keys of a team's state that a store persists separately: one per task, one per
 * inbox, the task id high watermark, the roster (the team's info), and the run's requests
 * and grants. The FileStore maps each to a file.
 */
export type StateKey = `task:${string}` | `inbox:${string}` | 'highWatermark' | 'roster' | 'requests';

/**
 * Told the previous value of a key just before the rules replace it, so a store knows
 * what one transaction changed (to persist only that) and can put it back (to undo a
 * transaction whose callback threw).
 */
export interface ChangeRecorder {
  before(key: StateKey, previous: unknown): void;
}

// Held beside the state holders rather than on them, so the public classes carry no
// store machinery.
const recorders = new WeakMap<object, ChangeRecorder>();

export function attachRecorder(holder: object, recorder: ChangeRecorder): void {
  recorders.set(holder, recorder);
}

export function recorderOf(holder: object): ChangeRecorder | undefined {
  return recorders.get(holder);
}
