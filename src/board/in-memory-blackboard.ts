import { TeamError } from '../errors/index.js';

/** What `new InMemoryBlackboard` takes. */
export interface BlackboardConfig {
  /** A disabled blackboard refuses every read and write. */
  enabled: boolean;
  /** Initial contents, by section name. */
  sections?: Record<string, unknown>;
}

/**
 * Shared state in named sections, held in memory. The task board keeps its list in the
 * section `team`; a store fills a blackboard from its files or rows for one transaction.
 *
 * @example
 * const blackboard = new InMemoryBlackboard({ enabled: true, sections: {} });
 * const board = TeamTaskBoard.initialize(blackboard, undefined, { lead: 'editor', members: ['writer'] });
 */
export class InMemoryBlackboard {
  readonly #enabled: boolean;
  readonly #sections = new Map<string, unknown>();

  constructor(config: BlackboardConfig = { enabled: true }) {
    this.#enabled = config.enabled;
    for (const [name, value] of Object.entries(config.sections ?? {})) this.#sections.set(name, value);
  }

  /** The value in `section`; `undefined` when none was written. */
  read<T>(section: string): T | undefined {
    this.#check();
    return this.#sections.get(section) as T | undefined;
  }

  /** Puts `value` in `section`, in place of what was there. */
  write(section: string, value: unknown): void {
    this.#check();
    this.#sections.set(section, value);
  }

  #check(): void {
    if (!this.#enabled) {
      throw new TeamError(
        'disabled',
        'This blackboard is disabled: create it with { enabled: true } to use it.',
      );
    }
  }
}
