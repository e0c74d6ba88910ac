import { checkActor } from '../agent/participants.js';
import type { NewTask, TaskChange, TeamTask } from '../board/task.js';
import type { TeamRules } from '../store/team-store.js';
import { callHook, type HookName, propose } from './hooks.js';
import { failure, type TeamToolContext, type ToolFailure } from './tool-context.js';

/**
 * Runs a hook on the change a tool call would make, before the tool commits it: the change
 * is tried in a transaction that is undone (so the hook judges exactly what the rules would
 * do now), the hook runs outside the lock, and the tool then commits as usual, the rules
 * checking again. Answers the tool's failure when the hook rejects (the feedback is the
 * error the model reads) or throws (the turn then fails); `undefined` lets the tool go on.
 */
async function guard(
  context: TeamToolContext,
  agent: string,
  hook: 'onTaskCreated' | 'onTaskCompleted',
  tryIt: (rules: TeamRules) => TeamTask | undefined,
  refused: (task: TeamTask, feedback: string) => string,
): Promise<ToolFailure | undefined> {
  const hooks = context.hooks;
  if (!hooks?.hooks[hook]) return undefined;
  let task: TeamTask | undefined;
  try {
    task = await propose<TeamRules, TeamTask | undefined>(
      (fn) => context.store.transact(context.team, fn),
      (rules) => {
        checkActor(rules.board.roster, agent);
        return tryIt(rules);
      },
    );
  } catch {
    return undefined; // the rules refuse: the tool's own call says why
  }
  if (!task) return undefined;
  const ctx = { team: context.team, runId: hooks.runId, agent };
  let feedback: string | undefined;
  try {
    feedback = await callHook(hooks.hooks, hook, task, ctx);
  } catch (error) {
    context.onHookFailure?.(error);
    return failure(error instanceof Error ? error.message : String(error));
  }
  if (feedback === undefined) return undefined;
  // A rejected creation takes no id: the next task gets the one it would have had.
  await recordRejection(context, hook, agent, hook === 'onTaskCreated' ? null : task.id, feedback);
  return failure(refused(task, feedback));
}

/** Logs a hook's rejection (`team:hook-rejected`): nothing else of the change is committed. */
async function recordRejection(
  context: TeamToolContext,
  hook: HookName,
  agent: string,
  taskId: string | null,
  feedback: string,
): Promise<void> {
  await context.store.transact(context.team, ({ emit }) =>
    emit({ type: 'team:hook-rejected', data: { hook, agent, taskId, feedback } }),
  );
}

/** `create_task` under `onTaskCreated`: a rejected task is never created (no id, no event of it). */
export function guardCreate(context: TeamToolContext, agent: string, input: unknown) {
  return guard(
    context,
    agent,
    'onTaskCreated',
    ({ board }) => {
      const before = board.counts().total;
      const task = board.createTask(input as NewTask, agent);
      // The same task twice is added once: only a new one is judged.
      return board.counts().total > before ? task : undefined;
    },
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
