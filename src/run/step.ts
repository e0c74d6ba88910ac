import { type Budget, type BudgetReached, budgetReached } from '../agent/budget.js';
import type { TeamTask } from '../board/task.js';
import type { StopReason, SynthesisPart } from '../events/team-event-map.js';
import {
  dueRequests,
  nextExpiry,
  nextQuestionExpiry,
  openQuestions,
  strandedWithLead,
} from '../fold/request-queries.js';
import {
  type AgentRunState,
  type Departure,
  departed,
  type OpenQuestion,
  type RunState,
} from '../fold/run-state.js';
import { nextSynthesis, planSynthesis } from '../prompt/synthesis-plan.js';
import { type BoardSnapshot, type Decision, decide } from './schedule.js';
import type { TeamSettings } from './team-settings.js';

/** What `step` reads besides the run state: the team's settings, the run's budget, the time. */
export interface StepContext {
  readonly settings: TeamSettings;
  readonly budget: Budget | undefined;
  /** The loop's clock, ms since the epoch. */
  readonly now: number;
}

/** What `step` reads of the board, taken in the transaction that acts on its answer. */
export interface StepSnapshot extends BoardSnapshot {
  /** Every task, in list order (read only when the run's end is decided). */
  readonly listTasks: () => readonly TeamTask[];
}

/**
 * What the run does next. The loop carries each out: `cut` stops a running turn (the only
 * action outside the store); `complete` writes the run's last event; `wait` waits for a
 * commit, a turn's end, or `until`; every other action is a commit, made in the transaction
 * that took the snapshot.
 */
export type Action =
  | { readonly kind: 'cut'; readonly agent: string }
  | { readonly kind: 'depart'; readonly member: string; readonly how: Departure }
  | { readonly kind: 'budget'; readonly reached: BudgetReached }
  | { readonly kind: 'expire'; readonly requestIds: readonly string[] }
  | { readonly kind: 'forward'; readonly requestIds: readonly string[] }
  | {
      readonly kind: 'expire-questions';
      readonly questions: readonly { member: string; question: OpenQuestion }[];
    }
  | {
      readonly kind: 'end';
      readonly stopReason: StopReason;
      readonly synthesis: 'none' | 'whole' | 'parts';
      readonly parts: readonly SynthesisPart[];
    }
  | { readonly kind: 'plan-synthesis'; readonly parts: readonly SynthesisPart[] }
  | { readonly kind: 'turn'; readonly decision: Extract<Decision, { kind: 'turn' }> }
  | { readonly kind: 'synthesis-turn'; readonly part: SynthesisPart | null }
  | { readonly kind: 'complete'; readonly stopReason: StopReason }
  | { readonly kind: 'wait'; readonly until: number | undefined };

/** Why the run stops before its end, from its fold: an abort asked for, or a failure that fails it. */
function stopOf(state: RunState, settings: TeamSettings): 'aborted' | 'failed' | null {
  if (state.abort) return 'aborted';
  const failure = state.failure;
  if (failure && (failure.fatal || failure.agent === state.lead || !settings.skipFailedMembers))
    return 'failed';
  return null;
}

/** Members to depart: a forced shutdown or removal asked, or a graceful one of a member that can take no turn to answer it. */
function departures(state: RunState): { agent: AgentRunState; how: Departure }[] {
  const found: { agent: AgentRunState; how: Departure }[] = [];
  for (const agent of state.agents.values()) {
    if (agent.role !== 'member' || departed(agent)) continue;
    if (agent.departing) found.push({ agent, how: agent.departing });
    else if (agent.shutdownRequest && (agent.status === 'stopped' || agent.status === 'failed')) {
      found.push({ agent, how: { force: true, reason: agent.shutdownRequest.reason, removed: false } });
    }
  }
  return found;
}

function endAction(
  state: RunState,
  snapshot: StepSnapshot,
  settings: TeamSettings,
  stopReason: StopReason,
): Action {
  if (!settings.synthesize || stopReason === 'no-tasks')
    return { kind: 'end', stopReason, synthesis: 'none', parts: [] };
  const plan = planSynthesis(settings, state.input, snapshot.listTasks());
  return { kind: 'end', stopReason, ...plan, parts: plan.synthesis === 'parts' ? plan.parts : [] };
}

/**
 * What the run does next, from its state and a snapshot of the board: a pure function, so
 * the run's whole policy is read from its log, live or resumed. In order: a stop (an abort, a
 * failure) cuts every running turn and then completes the run; departures asked for are
 * made (a running turn cut first); the run's budget, once reached, is committed; requests
 * due expire and those stranded with a lead out of turns go to the person; a run whose end
 * is decided runs its synthesis (one turn, or its parts, level by level) and completes; a run
 * over its budget starts nothing new and ends; otherwise the schedule (`decide`) starts the
 * next turn, waits, or decides the end.
 *
 * Each answer is one batch the loop commits at once; the loop folds it and asks again.
 */
export function step(state: RunState, snapshot: StepSnapshot, context: StepContext): Action[] {
  const { settings, now } = context;
  const working = [...state.agents.values()].filter((agent) => agent.status === 'working');
  const stop = stopOf(state, settings);
  if (stop) {
    if (working.length > 0) return [...working.map(cut), wait(undefined)];
    return [{ kind: 'complete', stopReason: stop }];
  }
  const cuts: Action[] = [];
  const departs: Action[] = [];
  for (const { agent, how } of departures(state)) {
    if (agent.status === 'working') cuts.push(cut(agent));
    else departs.push({ kind: 'depart', member: agent.name, how });
  }
  // An interrupted turn is cut; the member's next turn starts with the person's message.
  for (const agent of working)
    if (agent.interrupt?.turn === agent.turns && !agent.departing) cuts.push(cut(agent));
  if (departs.length > 0) return [...cuts, ...departs];
  const openedAt = state.openedAt ?? now;
  if (!state.budgetReached) {
    const reached = budgetReached(context.budget, state.usage, now - openedAt);
    if (reached) return [...cuts, { kind: 'budget', reached }];
  }
  const due = dueRequests(state, now).map((request) => request.id);
  const stranded = strandedWithLead(state, settings.maxLeadTurns).map((request) => request.id);
  const timeout = settings.governance.questionTimeoutMs;
  const unanswered = openQuestions(state).filter(({ question }) => question.askedAt + timeout <= now);
  if (due.length > 0 || stranded.length > 0 || unanswered.length > 0) {
    return [
      ...cuts,
      { kind: 'expire', requestIds: due },
      { kind: 'forward', requestIds: stranded },
      { kind: 'expire-questions', questions: unanswered },
    ];
  }
  if (state.ending) {
    if (working.length > 0) return [...cuts, wait(undefined)];
    const next = nextSynthesis(state.ending, state.summaries, settings, state.input);
    if (next.kind === 'turn') return [...cuts, { kind: 'synthesis-turn', part: next.part }];
    if (next.kind === 'plan') return [...cuts, { kind: 'plan-synthesis', parts: next.parts }];
    return [...cuts, { kind: 'complete', stopReason: state.ending.stopReason }];
  }
  if (state.budgetReached) {
    // Running turns stop after their current step; then the run ends with what is done.
    if (working.length > 0) return [...cuts, wait(undefined)];
    // A task turn a crash cut was running too: replayed, it ends its step as it would have.
    const replay = replayDue(state, snapshot);
    if (replay) return [...cuts, { kind: 'turn', decision: replay }];
    return [...cuts, endAction(state, snapshot, settings, 'budget')];
  }
  const decision = decide(state, snapshot, settings);
  if (decision.kind === 'turn') return [...cuts, { kind: 'turn', decision }];
  if (decision.kind === 'end') return [...cuts, endAction(state, snapshot, settings, decision.stopReason)];
  return [...cuts, wait(wakeAt(state, context, openedAt))];
}

/**
 * The replay of a member's task turn that a crash cut, while the member holds that task again
 * (a resume gives it back for the replay): once the budget is reached no new turn starts, but
 * this one is not new, and without it the task would be left in progress.
 */
function replayDue(state: RunState, snapshot: StepSnapshot): Extract<Decision, { kind: 'turn' }> | undefined {
  for (const agent of state.agents.values()) {
    const replay = agent.replay;
    const seen = snapshot.agent(agent.name);
    if (agent.role !== 'member' || replay?.reason !== 'task' || !seen || seen.held !== replay.taskId)
      continue;
    return {
      kind: 'turn',
      agent: agent.name,
      reason: 'task',
      taskId: replay.taskId,
      messageIds: seen.unread,
    };
  }
  return undefined;
}

/** When waiting ends by itself: the next request's or question's expiry, or the run's time budget. */
function wakeAt(state: RunState, context: StepContext, openedAt: number): number | undefined {
  const expiries = [
    nextExpiry(state),
    nextQuestionExpiry(state, context.settings.governance.questionTimeoutMs),
  ].filter((at) => at !== undefined);
  const expiry = expiries.length > 0 ? Math.min(...expiries) : undefined;
  const duration = context.budget?.maxDurationMs;
  const deadline = duration === undefined || state.budgetReached ? undefined : openedAt + duration;
  if (expiry === undefined) return deadline;
  return deadline === undefined ? expiry : Math.min(expiry, deadline);
}

function cut(agent: AgentRunState): Action {
  return { kind: 'cut', agent: agent.name };
}

function wait(until: number | undefined): Action {
  return { kind: 'wait', until };
}
