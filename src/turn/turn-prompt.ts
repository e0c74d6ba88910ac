import type { Agent } from '../agent/agent.js';
import type { TeamMessage } from '../mailbox/message.js';
import { renderMessages } from '../mailbox/render.js';
import type { RunState } from '../run/run-state.js';
import type { TeamRules } from '../store/team-store.js';
import {
  leadStartBriefing,
  messageBriefing,
  stalledBriefing,
  synthesisBriefing,
  taskBriefing,
} from '../team/briefings.js';
import type { TurnDescriptor } from './descriptor.js';
import { stallProblems } from './stall-problems.js';

/** What a turn's briefing is built from besides the store: the team and its run so far. */
export interface PromptContext {
  readonly members: readonly Agent[];
  readonly selfClaim: boolean;
  readonly run: RunState;
}

/**
 * A turn's briefing, read from the store as the descriptor names it: the task and the
 * results it builds on, the messages given to the turn, or the list for the lead.
 */
export function turnPrompt(
  { board, mailbox }: TeamRules,
  turn: TurnDescriptor,
  context: PromptContext,
): string {
  const wanted = new Set(turn.messageIds);
  const messages = mailbox.messages(turn.agent).filter((message) => wanted.has(message.id));
  switch (turn.reason) {
    case 'start':
      return leadStartBriefing(context.run.input, context.members, board.listTasks());
    case 'stalled': {
      const members = [...context.run.agents.values()].filter((agent) => agent.role === 'member');
      const briefing = stalledBriefing(stallProblems(board, members, context.selfClaim), board.listTasks());
      return withMessages(briefing, messages);
    }
    case 'synthesis':
      return withMessages(synthesisBriefing(context.run.input, board.listTasks()), messages);
    case 'message':
      return messageBriefing(messages);
    case 'task': {
      const task = turn.taskId ? board.getTask(turn.taskId) : undefined;
      if (!task) return messageBriefing(messages);
      const inputs = task.dependsOn.map((id) => board.getTask(id)).filter((input) => input !== undefined);
      return taskBriefing(task, inputs, messages);
    }
  }
}

/** A briefing with the unread messages its turn was given (notices that woke nobody), if any. */
function withMessages(briefing: string, messages: readonly TeamMessage[]): string {
  return messages.length === 0 ? briefing : `${briefing}\n\nUnread messages:\n${renderMessages(messages)}`;
}
