import type { Agent } from '../agent/agent.js';
import { cutTo } from '../events/limits.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamMessage } from '../mailbox/message.js';
import { renderMessages } from '../mailbox/render.js';
import type { TeamRules } from '../store/team-store.js';
import {
  fitMessages,
  leadStartBriefing,
  messageBriefing,
  stalledBriefing,
  taskBriefing,
  teamGoal,
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
  const unanswered = turn.context?.unanswered;
  // The notes are a few lines: a question nobody answered, what the agent asked, the answers it got.
  const all = unanswered ? [unansweredNote(unanswered), ...notes] : notes;
  const interrupted = turn.context?.interrupt;
  const head = interrupted
    ? `[${interrupted.by === 'user' ? 'the user' : interrupted.by} interrupted your last turn: their message, the first below, comes before everything else]\n\n`
    : '';
  const text = head + (all.length ? [base.text, ...all].join('\n\n') : base.text);
  return { text, shown: base.shown, requests };
}

/** A question nobody answered in time: the member goes on with what it knows. */
function unansweredNote({ to, content }: { to: readonly string[]; content: string }): string {
  return `Nobody answered your question to ${to.join(', ')} in time ("${cutTo(content, 400, null)}"): go on with what you know, and say what you assumed.`;
}

function basePrompt(
  { board, mailbox }: TeamRules,
  turn: TurnDescriptor,
  context: PromptContext,
): Omit<TurnPrompt, 'requests'> {
  const { room } = context;
  // What the turn reads of its run, kept with it when it started.
  const input = turn.context?.input ?? '';
  // Turns other than the lead's start and synthesis (which have the request whole) carry it as the team's goal.
  const goal = () => teamGoal(input, room, turn.role);
  const summaries = new Map(Object.entries(turn.context?.summaries ?? {}));
  const wanted = new Set(turn.messageIds);
  // The message an interrupt came with is read first.
  const first = turn.context?.interrupt?.messageId;
  const messages = mailbox
    .messages(turn.agent)
    .filter((message) => wanted.has(message.id))
    .sort((a, b) => Number(b.id === first) - Number(a.id === first));
  switch (turn.reason) {
    case 'start':
      return { text: leadStartBriefing(input, context.members, board.listTasks(), room), shown: [] };
    case 'stalled': {
      const problems = stallProblems(board, turn.context?.members ?? [], context.selfClaim);
      const notes = unreadNotes(messages, room);
      return {
        text: notes.around(stalledBriefing(problems, board.listTasks(), notes.room, goal())),
        shown: notes.shown,
      };
    }
    case 'synthesis': {
      const part = turn.synthesis ?? null;
      const source = { tasks: board.listTasks(), summaries };
      const blocks = synthesisBlocks(part, source, synthesisSpace(input, room));
      const text = synthesisBriefing(input, part, blocks, room);
      // Its parts were planned for the whole room: the unread notices get only what is left.
      if (messages.length === 0) return { text, shown: [] };
      const left = notesRoom(text, messages, room);
      if (left < 200) return { text, shown: [] };
      const notes = fitMessages(messages, left);
      return { text: `${text}\n\nUnread messages:\n${notes.text}`, shown: notes.shown };
    }
    case 'message':
      return messageBriefing(messages, room, goal());
    case 'task': {
      const task = turn.taskId ? board.getTask(turn.taskId) : undefined;
      if (!task) return messageBriefing(messages, room, goal());
      const inputs = task.dependsOn.map((id) => board.getTask(id)).filter((input) => input !== undefined);
      return taskBriefing(task, inputs, messages, room, goal());
    }
  }
}

/**
 * The tokens a synthesis briefing `text` leaves its unread notices. Counting loads the
 * tokenizer's tables (~0.15 s): the text's UTF-8 bytes bound its tokens, so when they leave
 * room for every notice whole, the exact count would make the same briefing and is not made.
 */
function notesRoom(text: string, messages: readonly TeamMessage[], room: number): number {
  const byBytes = room - Buffer.byteLength(text) - 20;
  if (byBytes >= 200 && Buffer.byteLength(renderMessages(messages)) <= byBytes) return byBytes;
  return room - countTokens(text) - 20;
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
