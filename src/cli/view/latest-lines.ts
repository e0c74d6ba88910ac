import type { TeamEvent } from '../../events/team-event-map.js';

/** The last non-empty line of `text`, or `undefined` when it has none. */
function lastLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((line) => line.trim())
    .findLast((line) => line.length > 0);
}

/**
 * Each working agent's latest line of text, for the live view: from the text as it streams
 * (`team:text-delta`), and from each step's logged text (`team:turn-text`), so a view that
 * starts from the log (a resumed run) shows it too. Gone when the agent's turn ends.
 */
export class LatestLines {
  readonly #lines = new Map<string, string>();
  /** The line being streamed, by agent: text since its last newline. */
  readonly #partial = new Map<string, string>();

  see(event: TeamEvent): void {
    switch (event.type) {
      case 'team:member-started':
      case 'team:member-finished':
        this.#lines.delete(event.data.member);
        this.#partial.delete(event.data.member);
        break;
      case 'team:text-delta': {
        const { agent, delta } = event.data;
        const text = (this.#partial.get(agent) ?? '') + delta;
        const newline = text.lastIndexOf('\n');
        const line = lastLine(text);
        if (line !== undefined) this.#lines.set(agent, line);
        this.#partial.set(agent, newline >= 0 ? text.slice(newline + 1) : text);
        break;
      }
      case 'team:turn-text': {
        const line = lastLine(event.data.text);
        if (line !== undefined) this.#lines.set(event.data.agent, line);
        this.#partial.delete(event.data.agent);
        break;
      }
    }
  }

  /** The agent's latest line in its current turn, if it wrote any. */
  of(agent: string): string | undefined {
    return this.#lines.get(agent);
  }
}
