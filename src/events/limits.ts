/**
 * Every size the rules bound, in one place: docs/guide/limits-and-guarantees.md and the tool
 * descriptions the model reads state the same numbers. Bounds keep one careless call from
 * bloating every later prompt and file, and every later commit.
 */
export const LIMITS = {
  /** Characters of a task's title. */
  taskTitle: 300,
  /** Characters of a task's description, result or note. */
  taskText: 50_000,
  /** Characters of a message. */
  message: 20_000,
  /** Unread messages an inbox holds; a send to a full inbox is refused (`inbox-full`). */
  unreadPerInbox: 100,
  /** Read messages an inbox keeps for inspection (older read ones are dropped). */
  readKept: 100,
  /** Characters of a tool call's input or result in a turn's transcript (`team:tool-called`, `team:tool-result`). */
  toolText: 10_000,
  /** Characters of a turn's briefing in its transcript (`team:turn-prompt`). */
  promptInLog: 4_000,
} as const;

/**
 * `text` cut to `max` characters with a marked note saying so, for text the harness writes on
 * an agent's behalf (its final reply as a result or a message): a long reply is kept up to
 * the limit, never refused, and the whole text stays in the run's event log. `where` says
 * where the whole text is, or nothing when it is kept nowhere (a transcript's tool input).
 */
export function cutTo(
  text: string,
  max: number,
  where: string | null = "the whole reply is in the run's event log",
): string {
  if (text.length <= max) return text;
  const note = (cut: number) => `\n[cut: ${cut} more characters${where ? `; ${where}` : ''}]`;
  const kept = max - note(text.length).length;
  return `${text.slice(0, kept)}${note(text.length - kept)}`;
}
