import { FileStore, InMemoryBlackboard, TeamTaskBoard } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { refusal } from '../helpers/board.js';

const board = (lead: unknown, members: unknown[]) => () =>
  TeamTaskBoard.initialize(new InMemoryBlackboard({ enabled: true, sections: {} }), undefined, {
    lead: lead as string,
    members: members as string[],
  });

describe('names', () => {
  test.each([
    '../x',
    '/',
    'a/b',
    '',
    '.',
    '..',
    '.hidden',
    'tab\there',
    'nul\u0000',
    'new\nline',
    'x'.repeat(65),
    'é',
  ])('the agent name %j is refused before it touches a path', (name) => {
    expect(refusal(board('lead', [name])).code).toBe('invalid-name');
  });

  test('team names are checked before any file is made', async () => {
    const store = new FileStore({ root: '/tmp/agent-teams-names-never-made' });
    await expect(store.createTeam('../escape', { lead: 'l', members: ['m'] })).rejects.toMatchObject({
      code: 'invalid-name',
    });
    await expect(store.transact('a/b', () => undefined)).rejects.toMatchObject({ code: 'invalid-name' });
  });

  test('rosters: no agent twice, no member named like an address, at least one member', () => {
    expect(refusal(board('lead', ['a', 'a'])).code).toBe('invalid-input');
    expect(refusal(board('boss', ['boss'])).code).toBe('invalid-input');
    expect(refusal(board('boss', ['everyone'])).code).toBe('invalid-name');
    expect(refusal(board('boss', ['lead'])).code).toBe('invalid-name');
    // `user` is the person running the team: no agent, lead or member, may pass for them.
    expect(refusal(board('boss', ['user']))).toMatchObject({
      code: 'invalid-name',
      message: 'No agent can be named "user": it is the name of the person running the team.',
    });
    expect(refusal(board('user', ['writer'])).code).toBe('invalid-name');
    expect(refusal(board('lead', [])).code).toBe('invalid-input');
    expect(() => board('lead', ['writer.v2', 'checker_1', 'A-9'])()).not.toThrow();
  });

  test('a disabled blackboard refuses use', () => {
    const blackboard = new InMemoryBlackboard({ enabled: false });
    expect(
      refusal(() => TeamTaskBoard.initialize(blackboard, undefined, { lead: 'l', members: ['m'] })).code,
    ).toBe('disabled');
  });
});
