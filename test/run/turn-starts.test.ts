import type { TeamEvent, TeamRules, TeamStore, TransactOptions } from 'agent-teams';
import { expect, test } from 'vitest';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam } from '../helpers/team.js';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';

const reachable = await postgresReachable();
const postgres = postgresStores();
const stores: (readonly [string, () => TeamStore])[] = [
  ...STORES,
  ...(reachable ? [['PostgresStore', () => postgres.make()] as const] : []),
];

/** `inner`, with the events of each of its commits recorded, one array per commit. */
function recordingCommits(inner: TeamStore): { store: TeamStore; commits: TeamEvent[][] } {
  const commits: TeamEvent[][] = [];
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'transact') {
        return (name: string, fn: (rules: TeamRules) => unknown, options?: TransactOptions) =>
          target.transact(name, fn, {
            ...options,
            committed: (events) => {
              commits.push([...events]);
              options?.committed?.(events);
            },
          });
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, commits };
}

/** A lead that plans four independent tasks, none assigned, and writes the answer. */
const planFour = byAgent({
  lead: (call) => {
    if (call.reason === 'start' && call.step === 0)
      return { toolCalls: [1, 2, 3, 4].map((n) => createTask({ title: `Task ${n}` })) };
    return call.reason === 'synthesis' ? 'Final' : 'ok';
  },
});

const memberStarts = (commit: readonly TeamEvent[]) =>
  commit.flatMap((event) =>
    event.type === 'team:member-started' && event.data.role === 'member' ? [event.data.member] : [],
  );

test.each(stores)(
  'on a %s the members’ turns the plan allows start in one commit, each with its task claimed and its prompt',
  async (_name, make) => {
    const { store, commits } = recordingCommits(make());
    const { team } = testTeam(planFour, { store, latencyMs: 20 });
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.teamResult.tasks.map((task) => task.status)).toEqual(Array(4).fill('completed'));
    // The lead's start turn ends; then a, b and c start together, in turn order.
    const first = commits.find((commit) => memberStarts(commit).length > 0) ?? [];
    expect(memberStarts(first)).toEqual(['a', 'b', 'c']);
    const claimed = first.flatMap((event) =>
      event.type === 'team:task-claimed' ? [[event.data.member, event.data.task.id]] : [],
    );
    expect(claimed).toEqual([
      ['a', 'task-1'],
      ['b', 'task-2'],
      ['c', 'task-3'],
    ]);
    const prompted = first.flatMap((event) => (event.type === 'team:turn-prompt' ? [event.data.agent] : []));
    expect(prompted.sort()).toEqual(['a', 'b', 'c']);
    // Every member turn of the run started in a commit of starts (none with anything else).
    const starting = commits.filter((commit) => memberStarts(commit).length > 0);
    expect(starting.flatMap(memberStarts)).toHaveLength(4);
  },
);

test.each(stores)(
  'on a %s a batch of starts stops at maxConcurrentMembers; the next member starts when a turn ends',
  async (_name, make) => {
    const { store, commits } = recordingCommits(make());
    const { team } = testTeam(planFour, { store, latencyMs: 20, maxConcurrentMembers: 2 });
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.stopReason).toBe('completed');
    const batches = commits.map(memberStarts).filter((starts) => starts.length > 0);
    expect(batches[0]).toEqual(['a', 'b']);
    expect(batches.flat()).toHaveLength(4);
    expect(Math.max(...batches.map((starts) => starts.length))).toBe(2);
  },
);
