import { z } from 'zod';
import type { TeamTask } from '../board/task.js';
import { TeamError } from '../errors/index.js';
import { fn } from '../errors/options-schema.js';

/** What a hook is told besides the change: where it happens and who acts. */
export interface HookContext {
  /** The team's name. */
  readonly team: string;
  /** The run it happens in. */
  readonly runId: string;
  /** The agent whose action the hook judges (the creator, the completer, the idle member); `user` for the person's. */
  readonly agent: string;
}

/** The member a `onTeammateIdle` hook judges: about to go idle with nothing to take. */
export interface IdleMember {
  /** The member's name. */
  readonly name: string;
  /** Its final reply in the turn that just ended. */
  readonly output: string;
  /** Its turns so far, this one included. */
  readonly turns: number;
}

/** A hook's answer: a string rejects with that feedback; nothing (or `undefined`) allows. */
export type HookAnswer = string | undefined;

/**
 * Lifecycle hooks: each judges a proposed change before it is committed, sync or async.
 * Returning a string rejects the change with that feedback, which reaches the acting agent;
 * returning nothing allows it. A hook that throws fails the run (`hook-failed`, naming it).
 * Hooks run outside the store's lock (they may be slow or call out); the change they allow is
 * committed by the rules afterwards, which check it again.
 */
export interface TeamHooks {
  /**
   * A task an agent puts on the list with `create_task`, or the person adds (`run.addTask`,
   * `agent-teams task add`, the Studio). Rejected: it is never created.
   */
  onTaskCreated?: (task: TeamTask, context: HookContext) => HookAnswer | Promise<HookAnswer>;
  /** A task about to be completed (`update_task`, or the harness completing it with the reply). */
  onTaskCompleted?: (task: TeamTask, context: HookContext) => HookAnswer | Promise<HookAnswer>;
  /** A member about to go idle with nothing to take. Rejected: it takes another turn. */
  onTeammateIdle?: (member: IdleMember, context: HookContext) => HookAnswer | Promise<HookAnswer>;
}

export type HookName = keyof TeamHooks;
/** The team's `hooks` option: known names, each a function. */
export const HOOKS_SCHEMA = z.strictObject({
  onTaskCreated: fn<NonNullable<TeamHooks['onTaskCreated']>>('a function').optional(),
  onTaskCompleted: fn<NonNullable<TeamHooks['onTaskCompleted']>>('a function').optional(),
  onTeammateIdle: fn<NonNullable<TeamHooks['onTeammateIdle']>>('a function').optional(),
} satisfies Record<HookName, z.ZodType>);

/**
 * Calls one hook: its feedback when it rejects, `undefined` when it allows (or is not set).
 * A throw, or an answer that is neither a string nor nothing, is `hook-failed` naming the hook.
 */
export async function callHook<N extends HookName>(
  hooks: TeamHooks,
  name: N,
  subject: Parameters<NonNullable<TeamHooks[N]>>[0],
  context: HookContext,
): Promise<string | undefined> {
  const hook = hooks[name] as ((subject: unknown, context: HookContext) => unknown) | undefined;
  if (!hook) return undefined;
  let answer: unknown;
  try {
    answer = await hook(subject, context);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TeamError('hook-failed', `The hook ${name} threw: ${reason}`, {
      cause: error,
      details: { hook: name, agent: context.agent },
    });
  }
  if (answer === undefined || answer === null) return undefined;
  if (typeof answer !== 'string') {
    throw new TeamError(
      'hook-failed',
      `The hook ${name} answered ${typeof answer}: answer a feedback string to reject, or nothing to allow.`,
      { details: { hook: name, agent: context.agent } },
    );
  }
  // An empty string would reject with nothing to act on: it is taken as a rejection all the same.
  return answer.trim() === '' ? `The ${name} hook rejected this.` : answer;
}

/** Thrown inside a transaction to undo it: how a change is tried before a hook judges it. */
class Proposal<T> {
  constructor(readonly value: T) {}
}

/**
 * Runs `fn` in a transaction and undoes it: the change as the rules would make it now (or
 * their refusal, thrown), without committing anything.
 */
export async function propose<R, T>(
  transact: (fn: (rules: R) => never) => Promise<unknown>,
  fn: (rules: R) => T,
): Promise<T> {
  try {
    await transact((rules) => {
      throw new Proposal(fn(rules));
    });
  } catch (error) {
    if (error instanceof Proposal) return error.value as T;
    // A store may wrap what its callback threw (the PostgresStore's `store-io`).
    const cause = (error as { cause?: unknown } | undefined)?.cause;
    if (cause instanceof Proposal) return cause.value as T;
    throw error;
  }
  throw new Error('A proposal was committed');
}
