import { Agent, FileStore, MemoryStore, Team, type TeamStore } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';

// The shape of bench/scale.ts at a size CI runs: many tasks, many members, members that
// message each other while they work. Every task is done once and every message is read.

const TASKS = 60;
const MEMBERS = 8;
const SENDS = 3;

test.each([
  ['memory', () => new MemoryStore()],
  ['file', () => new FileStore({ root: tempFolder() })],
] as const)(
  '%s store: a run of many tasks among members messaging each other completes whole',
  async (_, store: () => TeamStore) => {
    const names = Array.from({ length: MEMBERS }, (_, index) => `m${index + 1}`);
    const model = scriptedModel((call) => {
      if (call.reason !== 'task' || call.step > 0 || !call.taskId)
        return call.taskId ? `done ${call.taskId}` : 'ok';
      const others = names.filter((name) => name !== call.agent);
      const number = Number(call.taskId.slice('task-'.length));
      return {
        toolCalls: Array.from({ length: SENDS }, (_, index) => ({
          toolName: 'send_message',
          input: { to: others[(number + index) % others.length], content: `note ${index} on ${call.taskId}` },
        })),
      };
    });
    const teamStore = store();
    const team = new Team({
      name: 'scale',
      store: teamStore,
      lead: new Agent({ name: 'lead', model, instructions: '' }),
      members: names.map((name) => new Agent({ name, model, instructions: '' })),
      tasks: Array.from({ length: TASKS }, (_, index) => ({
        id: `task-${index + 1}`,
        title: `Task ${index + 1}`,
      })),
      maxTasks: TASKS,
      maxConcurrentMembers: MEMBERS,
      maxTurnsPerMember: TASKS,
      synthesize: false,
    });
    const sent: string[] = [];
    const completions = new Map<string, number>();
    team.on('team:message-sent', (event) => {
      if (!event.data.automatic) sent.push(event.data.content);
    });
    team.on('team:task-completed', (event) => {
      completions.set(event.data.task.id, (completions.get(event.data.task.id) ?? 0) + 1);
    });
    const result = await team.run({ input: 'Do the tasks and tell each other.' });
    expect(result.teamResult.stopReason).toBe('completed');
    expect(
      result.teamResult.tasks.every(
        (task) => task.status === 'completed' && task.result === `done ${task.id}`,
      ),
    ).toBe(true);
    expect([...completions.values()]).toEqual(Array(TASKS).fill(1));
    expect(sent).toHaveLength(TASKS * SENDS);
    const unread = await teamStore.transact('scale', ({ mailbox }) =>
      names.flatMap((name) => mailbox.unread(name)),
    );
    expect(unread).toEqual([]);
  },
  120_000,
);
