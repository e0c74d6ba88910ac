import { tool, zodSchema } from 'ai';
import { z } from 'zod';
import type { SentMessage } from '../../mailbox/message.js';
import { APPROVAL_NOTICE } from '../../mailbox/render.js';
import { answer, type TeamToolContext } from './tool-context.js';

// Schemas made once: the AI SDK then turns each into JSON Schema once, not on every model call.
const sendMessageInput = zodSchema(
  z.object({
    to: z.string().describe('A member\'s name, "lead" or "everyone"'),
    content: z.string().describe('The message'),
  }),
);
const readInboxInput = zodSchema(z.object({}));

export function sendMessageTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Write to a teammate by name, to "lead", or to "everyone".',
    inputSchema: sendMessageInput,
    execute: async ({ to, content }) => {
      let sent: SentMessage | undefined;
      const answered = await answer(context, ({ mailbox }) => {
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
    execute: () =>
      answer(context, ({ mailbox }) => {
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
