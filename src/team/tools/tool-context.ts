import type { SentMessage } from '../../mailbox/message.js';
import type { TeamRules, TeamStore } from '../../store/team-store.js';

/** What team tools act on: a team in a store. */
export interface TeamToolContext {
  readonly store: TeamStore;
  readonly team: string;
  /** Told of every message the agent sends; the runtime uses it to know who answered. */
  readonly onMessageSent?: (message: SentMessage) => void;
}

export type ToolAnswer = { success: true } & Record<string, unknown>;
export type ToolFailure = { success: false; error: string };

/**
 * Runs a tool's transaction and answers `{ success: true, ... }`, or `{ success: false, error }`
 * with the reason when the rules refuse or anything else goes wrong: a tool never throws
 * into the model loop, so the model can read the reason and correct itself.
 */
export async function answer(
  context: TeamToolContext,
  fn: (rules: TeamRules) => Record<string, unknown>,
): Promise<ToolAnswer | ToolFailure> {
  try {
    return { success: true, ...(await context.store.transact(context.team, fn)) };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error.message : String(error) };
  }
}
