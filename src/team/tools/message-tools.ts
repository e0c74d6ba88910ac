import { tool } from 'ai';
import { z } from 'zod';
import type { SentMessage } from '../../mailbox/message.js';
import { APPROVAL_NOTICE } from '../../mailbox/render.js';
import { answer, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

// Schemas made once: each is turned into JSON Schema once, not on every model call.
// Strict: a parameter the tool does not have is refused, never dropped.
const sendMessageFields = z.strictObject({
  to: z.string().describe('A member\'s name, "lead" or "everyone"'),
  content: z.string().describe('The message'),
});
const readInboxFields = z.strictObject({});
const sendMessageInput = toolInputSchema(sendMessageFields);
const readInboxInput = toolInputSchema(readInboxFields);

export function sendMessageTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Write to a teammate by name, to "lead", or to "everyone".',
    inputSchema: sendMessageInput,
    execute: async (input) => {
      let sent: SentMessage | undefined;
      const call = { tool: 'send_message', agent, schema: sendMessageFields, input };
      const answered = await answer(context, call, ({ to, content }, { mailbox }) => {
        sent = mailbox.send(agent, to, content);
        return { id: sent.id, to: sent.to };
      });
      // Told only once the message is committed.
      if (sent && answered.success) context.onMessageSent?.(sent);
      return answered;
    },
  });
}

export function readInboxTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Read your unread messages.',
    inputSchema: readInboxInput,
    execute: (input) =>
      answer(context, { tool: 'read_inbox', agent, schema: readInboxFields, input }, (_, { mailbox }) => {
        const messages = mailbox.take(agent).map(({ id, from, content, sentAt, broadcast }) => ({
          id,
          from,
          content,
          sentAt,
          ...(broadcast ? { toEveryone: true } : {}),
        }));
        return { messages, ...(messages.length > 0 ? { notice: APPROVAL_NOTICE } : {}) };
      }),
  });
}
