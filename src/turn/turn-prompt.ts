import type { Agent } from '../agent/agent.js';
import { governanceNotes } from '../governance/briefing.js';
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
export function turnPrompt(rules: TeamRules, turn: TurnDescriptor, context: PromptContext): string {
  const agent = context.members.find((member) => member.name === turn.agent);
  const notes = governanceNotes(context.run, turn, agent);
  return [basePrompt(rules, turn, context), ...notes].join('\n\n');
}

function basePrompt({ board, mailbox }: TeamRules, turn: TurnDescriptor, context: PromptContext): string {
  const wanted = new Set(turn.messageIds);
  const messages = mailbox.messages(turn.agent).filter((message) => wanted.has(message.id));
  switch (turn.reason) {
    case 'start':
      return leadStartBriefing(context.run.input, context.members, board.listTasks());
    case 'stalled': {
      const members = [...context.run.agents.values()].filter((agent) => agent.role === 'member');
      return stalledBriefing(stallProblems(board, members, context.selfClaim), board.listTasks());
    }
    case 'synthesis':
      return synthesisBriefing(context.run.input, board.listTasks());
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
