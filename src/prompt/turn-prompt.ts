import type { Agent } from '../agent/agent.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamMessage } from '../mailbox/message.js';
import type { TeamRules } from '../store/team-store.js';
import {
  fitMessages,
  leadStartBriefing,
  messageBriefing,
  stalledBriefing,
  taskBriefing,
} from './briefings.js';
import { type TurnRequests, turnRequests } from './request-notes.js';
import { stallProblems } from './stall-problems.js';
import { synthesisBlocks, synthesisBriefing, synthesisSpace } from './synthesis-briefings.js';
import { countTokens } from './tokens.js';

/** What a turn's briefing is built from besides the store and its descriptor: the team. */
export interface PromptContext {
  readonly members: readonly Agent[];
  readonly selfClaim: boolean;
  /** The o200k tokens the briefing may take: `promptBudgetTokens` less the agent's system prompt. */
  readonly room: number;
}

/** A turn's briefing and the messages of its descriptor it shows (the others stay unread). */
export interface TurnPrompt {
  readonly text: string;
  readonly shown: readonly string[];
  /** What the requests give the turn's tools (read in the same transaction as the briefing). */
  readonly requests: Omit<TurnRequests, 'notes'>;
}

/**
 * A turn's briefing, read from the store as the descriptor names it: the task and the
 * results it builds on, the messages given to the turn, or the list for the lead; always
 * within `context.room` tokens, whatever the list's size or the results' length.
 */
export function turnPrompt(rules: TeamRules, turn: TurnDescriptor, context: PromptContext): TurnPrompt {
  const agent = context.members.find((member) => member.name === turn.agent);
  const { notes, ...requests } = turnRequests(rules.requests.view(), turn, agent);
  const base = basePrompt(rules, turn, context);
  // The notes on requests are a few lines: what the agent asked, and the answers it got.
  const text = notes.length ? [base.text, ...notes].join('\n\n') : base.text;
  return { text, shown: base.shown, requests };
}

function basePrompt(
  { board, mailbox }: TeamRules,
  turn: TurnDescriptor,
  context: PromptContext,
): Omit<TurnPrompt, 'requests'> {
  const { room } = context;
  // What the turn reads of its run, kept with it when it started.
  const input = turn.context?.input ?? '';
  const summaries = new Map(Object.entries(turn.context?.summaries ?? {}));
  const wanted = new Set(turn.messageIds);
  const messages = mailbox.messages(turn.agent).filter((message) => wanted.has(message.id));
  switch (turn.reason) {
    case 'start':
      return { text: leadStartBriefing(input, context.members, board.listTasks(), room), shown: [] };
    case 'stalled': {
      const problems = stallProblems(board, turn.context?.members ?? [], context.selfClaim);
      const notes = unreadNotes(messages, room);
      return {
        text: notes.around(stalledBriefing(problems, board.listTasks(), notes.room)),
        shown: notes.shown,
      };
    }
    case 'synthesis': {
      const part = turn.synthesis ?? null;
      const source = { tasks: board.listTasks(), summaries };
      const blocks = synthesisBlocks(part, source, synthesisSpace(input, room));
      const text = synthesisBriefing(input, part, blocks, room);
      // Its parts were planned for the whole room: the unread notices get only what is left.
      const left = room - countTokens(text) - 20;
      if (messages.length === 0 || left < 200) return { text, shown: [] };
      const notes = fitMessages(messages, left);
      return { text: `${text}\n\nUnread messages:\n${notes.text}`, shown: notes.shown };
    }
    case 'message':
      return messageBriefing(messages, room);
    case 'task': {
      const task = turn.taskId ? board.getTask(turn.taskId) : undefined;
      if (!task) return messageBriefing(messages, room);
      const inputs = task.dependsOn.map((id) => board.getTask(id)).filter((input) => input !== undefined);
      return taskBriefing(task, inputs, messages, room);
    }
  }
}

/**
 * The unread messages a stalled or final briefing carries (the notices that woke nobody),
 * in at most a quarter of its room; the briefing gets the rest.
 */
function unreadNotes(messages: readonly TeamMessage[], room: number) {
  if (messages.length === 0) return { room, shown: [] as string[], around: (text: string) => text };
  const { text, shown } = fitMessages(messages, Math.floor(room / 4));
  return {
    room: room - Math.floor(room / 4),
    shown,
    around: (briefing: string) => `${briefing}\n\nUnread messages:\n${text}`,
  };
}
