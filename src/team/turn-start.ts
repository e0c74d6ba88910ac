import type { Agent } from '../agent/agent.js';
import type { TeamTask } from '../board/task.js';
import type { TeamEventDraft, TurnReason } from '../events/team-event-map.js';
import type { TeamMessage } from '../mailbox/message.js';
import type { TeamRules } from '../store/team-store.js';
import type { AgentState } from './agent-state.js';
import {
  leadStartBriefing,
  messageBriefing,
  stalledBriefing,
  synthesisBriefing,
  taskBriefing,
} from './briefings.js';
import { stallProblems } from './stall-problems.js';

/** A turn about to run: who, why, with what. */
export interface TurnStart {
  readonly state: AgentState;
  readonly reason: TurnReason;
  readonly task: TeamTask | undefined;
  /** Unread messages given to the turn; marked read when it ends, so a crash loses none. */
  readonly messages: readonly TeamMessage[];
  readonly prompt: string;
}

function started(state: AgentState, reason: TurnReason, taskId: string | null): TeamEventDraft {
  return {
    type: 'team:member-started',
    data: { member: state.agent.name, role: state.role, turn: state.turns + 1, reason, taskId },
  };
}

/**
 * The first of `candidates` with a reason to work: a task it holds or may claim (while the
 * lead is in a turn, only one assigned to it), or unread messages. Emits the turn's start, claims
 * the task and reads what the turn needs; the caller runs it inside one transaction.
 */
export function startMember(
  { board, mailbox, emit }: TeamRules,
  candidates: readonly AgentState[],
  leadInTurn: boolean,
): TurnStart | undefined {
  for (const state of candidates) {
    const name = state.agent.name;
    // A task it still holds (given back by nobody: a run cut off mid-turn) comes first.
    const held = board.heldBy(name);
    const claimable = held ?? board.claimableBy(name).find((task) => !leadInTurn || task.assignee === name);
    const messages = mailbox.unread(name);
    if (!claimable && messages.length === 0) continue;
    emit(started(state, claimable ? 'task' : 'message', claimable?.id ?? null));
    const task = held ?? (claimable && board.claimTask(name, claimable.id));
    if (!task) return { state, reason: 'message', task, messages, prompt: messageBriefing(messages) };
    const inputs = task.dependsOn.map((id) => board.getTask(id)).filter((input) => input !== undefined);
    return { state, reason: 'task', task, messages, prompt: taskBriefing(task, inputs, messages) };
  }
  return undefined;
}

export interface LeadContext {
  readonly input: string;
  readonly members: readonly Agent[];
  readonly memberStates: readonly AgentState[];
  readonly selfClaim: boolean;
}

/** A lead turn for `reason`, or `undefined` for a message turn with no unread message. */
export function startLead(
  { board, mailbox, emit }: TeamRules,
  state: AgentState,
  reason: TurnReason,
  context: LeadContext,
): TurnStart | undefined {
  const messages = reason === 'message' ? mailbox.unread(state.agent.name) : [];
  if (reason === 'message' && messages.length === 0) return undefined;
  const tasks = board.listTasks();
  let prompt: string;
  if (reason === 'start') prompt = leadStartBriefing(context.input, context.members, tasks);
  else if (reason === 'stalled') {
    prompt = stalledBriefing(stallProblems(board, context.memberStates, context.selfClaim), tasks);
  } else if (reason === 'synthesis') prompt = synthesisBriefing(context.input, tasks);
  else prompt = messageBriefing(messages);
  emit(started(state, reason, null));
  return { state, reason, task: undefined, messages, prompt };
}
