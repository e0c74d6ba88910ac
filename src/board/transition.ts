import type { TeamEventDraft } from '../events/team-event-map.js';
import type { TeamTask } from './task.js';

/**
 * What a rule decides: the value it answers, the tasks it creates or replaces, a new
 * high watermark, and the events the change causes. Rules never mutate the state; the
 * board applies a transition in one step, so a refused call changes nothing.
 */
export interface Transition<T> {
  readonly value: T;
  readonly tasks: readonly TeamTask[];
  readonly highWatermark?: number;
  readonly events: readonly TeamEventDraft[];
}

/** A transition that changes nothing. */
export function unchanged<T>(value: T): Transition<T> {
  return { value, tasks: [], events: [] };
}

/** Everything a rule needs besides the state: who acts and what time it is. */
export interface RuleContext {
  readonly now: string;
}
