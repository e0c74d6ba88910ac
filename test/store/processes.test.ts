import { fileURLToPath } from 'node:url';
import { FileStore, type TeamMessage } from 'agent-teams';
import { expect, test } from 'vitest';
import { runScript } from '../helpers/child.js';
import { tempFolder } from '../helpers/temp-folder.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const members = Array.from({ length: 8 }, (_, index) => `worker${index + 1}`);

test('8 processes claim and complete 400 tasks: each task completed once, by its claimer', async () => {
  const root = tempFolder();
  const store = new FileStore({ root });
  await store.createTeam('race', { lead: 'lead', members, maxTasks: 400 });
  await store.transact('race', ({ board }) => {
    for (let index = 0; index < 400; index++) board.createTask({ title: `Task ${index}` }, 'lead');
  });

  const outputs = await Promise.all(
    members.map((member) => runScript(fixture('claim-worker.mjs'), ['file', root, 'race', member])),
  );
  const claims = outputs.map((output) => JSON.parse(output) as string[]);

  const all = claims.flat();
  expect(all).toHaveLength(400);
  expect(new Set(all).size).toBe(400);
  // Every process got some of the work: the race was real.
  expect(claims.filter((ids) => ids.length > 0).length).toBeGreaterThan(1);
  const tasks = await new FileStore({ root }).transact('race', ({ board }) => board.listTasks());
  expect(tasks.every((task) => task.status === 'completed')).toBe(true);
  members.forEach((member, index) => {
    for (const id of claims[index] ?? []) {
      const task = tasks.find((candidate) => candidate.id === id);
      expect(task).toMatchObject({ owner: member, result: `${member}:${id}` });
    }
  });
}, 180_000); // 8 processes on 2 cores: slow under load, bounded all the same

test('8 processes send 200 messages each to one inbox: the reader takes 1600 distinct, none twice', async () => {
  const root = tempFolder();
  const store = new FileStore({ root });
  await store.createTeam('post', { lead: 'lead', members: [...members, 'reader'] });

  const taken: TeamMessage[] = [];
  let sending = true;
  // The reader takes while the senders send, so reads race writes too.
  const reader = (async () => {
    while (sending) {
      taken.push(...(await store.transact('post', ({ mailbox }) => mailbox.take('reader'))));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    taken.push(...(await store.transact('post', ({ mailbox }) => mailbox.take('reader'))));
  })();
  await Promise.all(
    members.map((member) => runScript(fixture('send-worker.mjs'), [root, 'post', member, 'reader', '200'])),
  );
  sending = false;
  await reader;

  expect(taken).toHaveLength(1600);
  expect(new Set(taken.map((message) => message.id)).size).toBe(1600);
  const expected = members.flatMap((member) =>
    Array.from({ length: 200 }, (_, index) => `${member}#${index}`),
  );
  expect(taken.map((message) => message.content).sort()).toEqual(expected.sort());
  // Each sender's messages arrive in the order it sent them.
  for (const member of members) {
    const own = taken.filter((message) => message.from === member).map((message) => message.content);
    expect(own).toEqual(Array.from({ length: 200 }, (_, index) => `${member}#${index}`));
  }
}, 180_000); // 8 processes on 2 cores: slow under load, bounded all the same
