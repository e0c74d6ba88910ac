import type { ModelMessage } from 'ai';

/** Turns of history kept per agent and thread: enough context, bounded prompts. */
const KEPT_TURNS = 6;

/**
 * What each agent said and saw in its earlier turns, by thread. A run with a `threadId`
 * gives every turn the agent's history in that thread; a run without one starts each turn fresh.
 */
export class ThreadMemory {
  readonly #threads = new Map<string, Map<string, ModelMessage[][]>>();

  history(threadId: string | undefined, agent: string): ModelMessage[] {
    if (threadId === undefined) return [];
    return this.#threads.get(threadId)?.get(agent)?.flat() ?? [];
  }

  /** Keeps one turn's messages (its briefing and the model's replies and tool results). */
  remember(threadId: string | undefined, agent: string, turn: readonly ModelMessage[]): void {
    if (threadId === undefined) return;
    let agents = this.#threads.get(threadId);
    if (!agents) {
      agents = new Map();
      this.#threads.set(threadId, agents);
    }
    const turns = [...(agents.get(agent) ?? []), [...turn]];
    agents.set(agent, turns.slice(-KEPT_TURNS));
  }
}
