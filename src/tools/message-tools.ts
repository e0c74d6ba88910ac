import { tool } from 'ai';
import { z } from 'zod';
import { MODEL_MESSAGE_KINDS } from '../mailbox/message.js';
import { APPROVAL_NOTICE } from '../mailbox/render.js';
import { countTokens, fitsTokens } from '../prompt/tokens.js';
import { answer, budgetOf, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

// Schemas made once: each is turned into JSON Schema once, not on every model call.
// Strict: a parameter the tool does not have is refused, never dropped.
const sendMessageFields = z.strictObject({
  to: z
    .string()
    .describe('A teammate, "lead", "everyone" (all other agents) or "user" (the person running the team)'),
  content: z.string().describe('≤20000 characters'),
  kind: z
    .enum(MODEL_MESSAGE_KINDS)
    .optional()
    .describe('Default "text"; "question": you keep your task and get a turn when answered'),
});
const readInboxFields = z.strictObject({});
/** Tokens an inbox answer keeps for the notice and the rest besides its messages. */
const INBOX_FRAME = 400;
const sendMessageInput = toolInputSchema(sendMessageFields);
const readInboxInput = toolInputSchema(readInboxFields);

export function sendMessageTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Send a message.',
    inputSchema: sendMessageInput,
    execute: (input) => {
      // Taken once per call, outside the transaction (which a store may run again).
      const effect = context.nextEffect?.();
      return answer(
        context,
        { tool: 'send_message', agent, schema: sendMessageFields, input },
        ({ to, content, kind }, { mailbox }) => {
          const sent = mailbox.send(agent, to, content, { kind, ...(effect ? { effect } : {}) });
          return { id: sent.id, to: sent.to };
        },
      );
    },
  });
}

export function readInboxTool(context: TeamToolContext, agent: string) {
  const room = budgetOf(context) - INBOX_FRAME;
  return tool({
    description: 'Unread messages not yet in your turn, oldest first, as many as fit.',
    inputSchema: readInboxInput,
    execute: (input) =>
      answer(context, { tool: 'read_inbox', agent, schema: readInboxFields, input }, (_, { mailbox }) => {
        const { seen } = context;
        const unread = mailbox.unread(agent).filter((message) => !seen?.has(message.id));
        const messages: Record<string, unknown>[] = [];
        // Most inboxes fit whole: counted only when they do not.
        const all = fitsTokens(JSON.stringify(unread), room);
        let used = 0;
        for (const { id, from, content, sentAt, broadcast, kind } of unread) {
          const message = {
            id,
            from,
            content,
            sentAt,
            ...(kind !== 'text' ? { kind } : {}),
            ...(broadcast ? { toEveryone: true } : {}),
          };
          const size = all ? 0 : countTokens(JSON.stringify(message));
          // The first one is given even when it is too long alone: the answer cuts its text.
          if (messages.length > 0 && used + size > room) break;
          messages.push(message);
          used += size;
        }
        const given = unread.slice(0, messages.length).map((message) => message.id);
        // In a turn, what it was given is read when the turn ends; else it is read now.
        if (seen) for (const id of given) seen.add(id);
        else mailbox.markRead(agent, given);
        const left = unread.length - messages.length;
        return {
          messages,
          ...(messages.length > 0 ? { notice: APPROVAL_NOTICE } : {}),
          ...(left > 0 ? { more: `${left} more unread: read_inbox again gives the next` } : {}),
        };
      }),
  });
}
