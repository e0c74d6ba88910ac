import type { TeamEvent, TeamEventType } from './team-event-map.js';

/** A listener of events of type `K`. */
export type TeamEventHandler<K extends TeamEventType> = (event: TeamEvent<K>) => void;

/**
 * Typed listeners by event type, plus `*` for every event. A throwing listener never
 * breaks the run or the other listeners: its error goes to `onListenerError`
 * (by default printed to stderr with the event's type).
 */
export class TeamEmitter {
  readonly #handlers = new Map<string, Set<(event: TeamEvent) => void>>();
  readonly #onListenerError: (error: unknown, event: TeamEvent) => void;

  constructor(onListenerError?: (error: unknown, event: TeamEvent) => void) {
    this.#onListenerError =
      onListenerError ??
      ((error, event) => console.error(`agent-teams: a listener of ${event.type} threw:`, error));
  }

  /** Listens to events of `type` (`*`: every event); returns a function that stops listening. */
  on<K extends TeamEventType>(type: K | '*', handler: TeamEventHandler<K>): () => void {
    let handlers = this.#handlers.get(type);
    if (!handlers) {
      handlers = new Set();
      this.#handlers.set(type, handlers);
    }
    const wrapped = handler as (event: TeamEvent) => void;
    handlers.add(wrapped);
    return () => handlers.delete(wrapped);
  }

  /** Whether anything listens to `type` (a listener of every event, `*`, does). */
  listens(type: TeamEventType): boolean {
    return (this.#handlers.get(type)?.size ?? 0) > 0 || (this.#handlers.get('*')?.size ?? 0) > 0;
  }

  /** Gives `event` to its type's listeners, then to those of every event. */
  emit(event: TeamEvent): void {
    for (const key of [event.type, '*']) {
      for (const handler of this.#handlers.get(key) ?? []) {
        try {
          handler(event);
        } catch (error) {
          this.#onListenerError(error, event);
        }
      }
    }
  }
}
