import { tool } from 'ai';
import { z } from 'zod';
import { MODEL_MESSAGE_KINDS } from '../../mailbox/message.js';
import { APPROVAL_NOTICE } from '../../mailbox/render.js';
import { answer, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

// Schemas made once: each is turned into JSON Schema once, not on every model call.
// Strict: a parameter the tool does not have is refused, never dropped.
const sendMessageFields = z.strictObject({
  to: z.string().describe('A member\'s name, "lead" or "everyone"'),
  content: z.string().describe('The message, ≤20000 characters; an inbox holds ≤100 unread'),
  kind: z
    .enum(MODEL_MESSAGE_KINDS)
    .optional()
    .describe('What it is: "text" (default), "status_update", "question" or "error_report"'),
});
const readInboxFields = z.strictObject({});
const sendMessageInput = toolInputSchema(sendMessageFields);
const readInboxInput = toolInputSchema(readInboxFields);

export function sendMessageTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Write to a teammate by name, to "lead", or to "everyone".',
    inputSchema: sendMessageInput,
    execute: (input) =>
      answer(
        context,
        { tool: 'send_message', agent, schema: sendMessageFields, input },
        ({ to, content, kind }, { mailbox }) => {
          const sent = mailbox.send(agent, to, content, { kind });
          return { id: sent.id, to: sent.to };
        },
      ),
  });
}

export function readInboxTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Read the unread messages your turn was not given yet.',
    inputSchema: readInboxInput,
    execute: (input) =>
      answer(context, { tool: 'read_inbox', agent, schema: readInboxFields, input }, (_, { mailbox }) => {
        const { seen } = context;
        const unread = seen
          ? mailbox.unread(agent).filter((message) => !seen.has(message.id))
          : mailbox.take(agent);
        for (const message of unread) seen?.add(message.id);
        const messages = unread.map(({ id, from, content, sentAt, broadcast, kind }) => ({
          id,
          from,
          content,
          sentAt,
          ...(kind !== 'text' ? { kind } : {}),
          ...(broadcast ? { toEveryone: true } : {}),
        }));
        return { messages, ...(messages.length > 0 ? { notice: APPROVAL_NOTICE } : {}) };
      }),
  });
}
