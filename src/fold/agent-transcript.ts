import type { TeamEvent } from '../events/team-event-map.js';

// What an agent's transcript is made of, read the same way by `agent-teams logs --agent`
// (as lines), the pane of `run --panes` and the Studio (as folded JSON): which events belong
// to an agent, and what a tool call's input or answer holds.

/** The agent an event is about, for the events a transcript holds; `undefined` for others. */
export function agentOf(event: TeamEvent): string | undefined {
  switch (event.type) {
    case 'team:member-started':
    case 'team:member-finished':
    case 'team:turn-usage':
      return event.data.member;
    case 'team:turn-prompt':
    case 'team:turn-text':
    case 'team:tool-called':
    case 'team:tool-result':
    case 'team:text-delta':
      return event.data.agent;
    default:
      return undefined;
  }
}

/**
 * A tool call's input or answer as the log keeps it (text: the call's arguments as JSON, an
 * answer as JSON unless it was a string, either cut at `LIMITS.toolText` with a marker): an
 * object or array when the text is one, else the text itself (a plain answer, or JSON cut
 * short, which no longer parses).
 */
export type ToolPayload =
  | { readonly kind: 'json'; readonly value: object }
  | { readonly kind: 'text'; readonly text: string };

export function toolPayload(text: string): ToolPayload {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (typeof value === 'object' && value !== null) return { kind: 'json', value };
    } catch {
      // Cut short (or not JSON after all): shown as the text it is.
    }
  }
  return { kind: 'text', text };
}

/** The payload on one line, as the terminal shows it: compact JSON, or the text. */
export function payloadLine(payload: ToolPayload): string {
  return payload.kind === 'json' ? JSON.stringify(payload.value) : payload.text;
}
