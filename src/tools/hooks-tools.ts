import { checkActor, USER } from '../agent/participants.js';
import type { NewTask, TaskChange, TeamTask } from '../board/task.js';
import { TeamError } from '../errors/index.js';
import type { TeamRules, TeamStore } from '../store/team-store.js';
import { callHook, type HookName, propose, type TeamHooks } from './hooks.js';
import { failure, type TeamToolContext, type ToolFailure } from './tool-context.js';

/** Where a hook judges a change: the team's store, and its hooks with the run they judge for. */
export interface HookJudging {
  readonly store: TeamStore;
  readonly team: string;
  readonly hooks?: { readonly hooks: TeamHooks; readonly runId: string } | undefined;
}

/**
 * Runs a hook on the change `agent` would make, before it is committed: the change is tried
 * in a transaction that is undone (so the hook judges exactly what the rules would do now),
 * the hook runs outside the lock, and the caller then commits as usual, the rules checking
 * again. Answers the task and the hook's feedback when it rejects (logged as
 * `team:hook-rejected`); `undefined` when it allows, is not set, or the rules refuse (the
 * caller's own commit says why). A hook that throws throws `hook-failed`.
 */
async function judge(
  where: HookJudging,
  agent: string,
  hook: 'onTaskCreated' | 'onTaskCompleted',
  tryIt: (rules: TeamRules) => TeamTask | undefined,
): Promise<{ readonly task: TeamTask; readonly feedback: string } | undefined> {
  const { hooks } = where;
  if (!hooks?.hooks[hook]) return undefined;
  let task: TeamTask | undefined;
  try {
    task = await propose<TeamRules, TeamTask | undefined>(
      (fn) => where.store.transact(where.team, fn),
      (rules) => {
        if (agent !== USER) checkActor(rules.board.roster, agent);
        return tryIt(rules);
      },
    );
  } catch {
    return undefined; // the rules refuse: the caller's own commit says why
  }
  if (!task) return undefined;
  const feedback = await callHook(hooks.hooks, hook, task, { team: where.team, runId: hooks.runId, agent });
  if (feedback === undefined) return undefined;
  // A rejected creation takes no id: the next task gets the one it would have had.
  await recordRejection(where, hook, agent, hook === 'onTaskCreated' ? null : task.id, feedback);
  return { task, feedback };
}

/**
 * A tool call under a hook: the tool's failure when the hook rejects (the feedback is the
 * error the model reads) or throws (the turn then fails); `undefined` lets the tool go on.
 */
async function guard(
  context: TeamToolContext,
  agent: string,
  hook: 'onTaskCreated' | 'onTaskCompleted',
  tryIt: (rules: TeamRules) => TeamTask | undefined,
  refused: (task: TeamTask, feedback: string) => string,
): Promise<ToolFailure | undefined> {
  try {
    const rejected = await judge(context, agent, hook, tryIt);
    return rejected ? failure(refused(rejected.task, rejected.feedback)) : undefined;
  } catch (error) {
    if (!(error instanceof TeamError && error.code === 'hook-failed')) throw error;
    context.onHookFailure?.(error);
    return failure(error.message);
  }
}

/** Logs a hook's rejection (`team:hook-rejected`): nothing else of the change is committed. */
async function recordRejection(
  where: HookJudging,
  hook: HookName,
  agent: string,
  taskId: string | null,
  feedback: string,
): Promise<void> {
  await where.store.transact(where.team, ({ emit }) =>
    emit({ type: 'team:hook-rejected', data: { hook, agent, taskId, feedback } }),
  );
}

/** `onTaskCreated` on a task `by` would create; a task already on the list (the same twice) is not judged again. */
function tryCreate(input: unknown, by: string) {
  return ({ board }: TeamRules) => {
    const before = board.counts().total;
    const task = board.createTask(input as NewTask, by);
    return board.counts().total > before ? task : undefined;
  };
}

/**
 * The person's new task under `onTaskCreated`, as an agent's: judged before it is created,
 * and never created when the hook rejects (`hook-rejected`, with its feedback).
 */
export async function judgeUserTask(where: HookJudging, input: NewTask): Promise<void> {
  const rejected = await judge(where, USER, 'onTaskCreated', tryCreate(input, USER));
  if (!rejected) return;
  throw new TeamError(
    'hook-rejected',
    `The task "${rejected.task.title}" was not created: ${rejected.feedback}`,
    {
      details: { hook: 'onTaskCreated', feedback: rejected.feedback },
    },
  );
}

/** `create_task` under `onTaskCreated`: a rejected task is never created (no id, no event of it). */
export function guardCreate(context: TeamToolContext, agent: string, input: unknown) {
  return guard(
    context,
    agent,
    'onTaskCreated',
    tryCreate(input, agent),
    (task, feedback) => `The task "${task.title}" was not created: ${feedback}`,
  );
}

/** `update_task` to completed under `onTaskCompleted`: a rejected task stays as it was. */
export function guardComplete(context: TeamToolContext, agent: string, input: unknown) {
  const { taskId, ...change } = (input ?? {}) as { taskId?: unknown } & TaskChange;
  if (typeof taskId !== 'string' || change.status !== 'completed') return Promise.resolve(undefined);
  return guard(
    context,
    agent,
    'onTaskCompleted',
    ({ board }) => board.updateTask(taskId, change, agent),
    (task, feedback) => `The task ${task.id} was not completed (it stays ${board(task)}): ${feedback}`,
  );
}

function board(task: TeamTask): string {
  return task.owner ? `in progress with ${task.owner}` : 'pending';
}
