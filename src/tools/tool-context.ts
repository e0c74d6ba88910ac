import type { z } from 'zod';
import { checkActor } from '../agent/participants.js';
import { DEFAULT_PROMPT_BUDGET } from '../prompt/prompt-room.js';
import type { TeamRules, TeamStore } from '../store/team-store.js';
import { fitAnswer } from './fit-answer.js';
import type { TeamHooks } from './hooks.js';
import { parseToolInput } from './tool-input.js';

/** What team tools act on: a team in a store. */
export interface TeamToolContext {
  /** The store the tools act on. */
  readonly store: TeamStore;
  /** The team's name in it. */
  readonly team: string;
  /**
   * The messages the agent's current turn has been given, when the tools serve a turn of a
   * run: `read_inbox` then gives only the others, adds them here, and leaves marking them
   * read to the turn's end (so a crash mid-turn loses none). Without it `read_inbox` marks
   * what it gives read at once.
   */
  readonly seen?: Set<string>;
  /** The bound of each answer, in o200k tokens (the team's `promptBudgetTokens`). Default 24,000. */
  readonly promptBudgetTokens?: number;
  /** The team's lifecycle hooks, with the run they judge for (see governance/hooks.ts). */
  readonly hooks?: {
    /** The hooks. */
    readonly hooks: TeamHooks;
    /** The run they judge for. */
    readonly runId: string;
  };
  /** Told when a hook throws: the turn then fails with that error (a tool never throws). */
  readonly onHookFailure?: (error: unknown) => void;
  /**
   * In a turn of a run: the key of the turn's next effect (its run, agent, turn and the
   * effect's place in the turn), so a replay of the turn after a crash does none twice.
   */
  readonly nextEffect?: () => string;
}

/** The bound of each of the tools' answers. */
export function budgetOf(context: TeamToolContext): number {
  return context.promptBudgetTokens ?? DEFAULT_PROMPT_BUDGET;
}

export type ToolAnswer = { success: true } & Record<string, unknown>;
export type ToolFailure = { success: false; error: string };

/** One call of a team tool: which tool, bound to which agent, and what it was given. */
export interface ToolCall<T extends z.ZodObject> {
  readonly tool: string;
  readonly agent: string;
  readonly schema: T;
  readonly input: unknown;
}

// A reason is for reading: one that echoes a huge bad input is cut, not sent whole.
const MAX_ERROR_LENGTH = 1_000;

export function failure(error: string): ToolFailure {
  return {
    success: false,
    error: error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH - 1)}…` : error,
  };
}

/**
 * Runs one tool call: checks its input against the tool's schema, then, in one
 * transaction, that the bound agent is on the team and what the tool does. Answers
 * `{ success: true, ... }`, or `{ success: false, error }` with the reason when the input
 * is bad, the rules refuse, or anything else goes wrong: a tool never throws into the
 * model loop, so the model can read the reason and correct itself.
 */
export async function answer<T extends z.ZodObject>(
  context: TeamToolContext,
  call: ToolCall<T>,
  fn: (input: z.output<T>, rules: TeamRules) => Record<string, unknown>,
): Promise<ToolAnswer | ToolFailure> {
  const parsed = parseToolInput(call.tool, call.schema, call.input);
  if (!parsed.success) return failure(parsed.error);
  try {
    const done = await context.store.transact(context.team, (rules) => {
      // A tool bound to a name that is not (or no longer) on the team does nothing.
      checkActor(rules.board.roster, call.agent);
      return fn(parsed.data, rules);
    });
    // No answer outgrows the prompt budget, whatever the list or the texts it shows.
    return { success: true, ...fitAnswer(done, budgetOf(context)) };
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
}
