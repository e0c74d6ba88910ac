import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { teams } from '../../examples/debate.js';
import { byAgent, createTask, tool } from '../helpers/team.js';

test('the debaters try to disprove each other by messages, and the moderator weighs it', async () => {
  const debater =
    (other: string, claim: string) => (call: { reason?: string; step: number; prompt: string }) => {
      if (call.reason === 'task' && call.step === 0) {
        return {
          toolCalls: [tool('send_message', { to: other, content: `Evidence against you: ${claim}` })],
        };
      }
      if (
        call.reason === 'message' &&
        !call.prompt.includes('(to everyone)') &&
        call.step === 0 &&
        call.prompt.includes('Evidence against')
      ) {
        return {
          toolCalls: [tool('send_message', { to: other, content: `I concede part of it, but ${claim}` })],
        };
      }
      return `Position: ${claim}`;
    };
  const model = scriptedModel(
    byAgent({
      moderator: (call) => {
        if (call.reason === 'start' && call.step === 0) {
          return {
            toolCalls: [
              createTask({ title: 'Argue: the socket times out', assignee: 'proposer' }),
              createTask({ title: 'Argue: the server closes idle sessions', assignee: 'challenger' }),
            ],
          };
        }
        return call.reason === 'synthesis' ? 'The idle-session hypothesis survived.' : 'Debate on.';
      },
      proposer: debater('challenger', 'the timeout is 30 s, the drop comes at 31 s'),
      challenger: debater('proposer', 'the server log shows "session closed: idle"'),
    }),
  );
  const debate = teams.debate.withModel(model);
  const exchanges: string[] = [];
  debate.on('team:message-sent', (event) => exchanges.push(`${event.data.from}->${event.data.to.join(',')}`));
  const result = await debate.run({ input: 'Why does the app disconnect after one message?' });
  expect(result.output).toBe('The idle-session hypothesis survived.');
  expect(exchanges).toEqual(expect.arrayContaining(['proposer->challenger', 'challenger->proposer']));
  expect(exchanges.length).toBeGreaterThanOrEqual(4);
  expect(result.teamResult.tasks.map((task) => task.result)).toEqual([
    'Position: the timeout is 30 s, the drop comes at 31 s',
    'Position: the server log shows "session closed: idle"',
  ]);
  expect(result.teamResult.stopReason).toBe('completed');
});
