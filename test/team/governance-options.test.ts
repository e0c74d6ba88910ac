import path from 'node:path';
import { Agent, Team } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';

const model = scriptedModel([]);
const lead = new Agent({ name: 'lead', model, instructions: 'Plan.' });
const member = (config: Record<string, unknown> = {}) =>
  new Agent({ name: 'a', model, instructions: 'Work.', ...config });
const team =
  (config: Record<string, unknown>, members = [member()]) =>
  () =>
    new Team({ name: 't', lead, members, ...config } as never);

test('every governance option error is invalid-option', () => {
  const root = tempFolder();
  for (const make of [
    team({ workspace: { root: path.join(root, 'missing') } }),
    team({ permissions: { allowedPaths: [] } }),
    team({}, [member({ permissionMode: 'bypass' })]),
    () => member({ permissionMode: 'classifier' }),
    () => member({ classifier: () => true }),
  ]) {
    expect(make).toThrow(expect.objectContaining({ code: 'invalid-option' }));
  }
});

test('governance options are checked when the team or agent is made, each with a reason', () => {
  const root = tempFolder();
  expect(team({ workspace: { root: path.join(root, 'missing') } })).toThrow(
    'workspace.root of the team t must be the path of an existing folder, not',
  );
  expect(team({ workspace: { root, readOnly: true } })).toThrow(
    'Unknown option "readOnly" for workspace of the team t; the known ones are root.',
  );
  expect(team({ permissions: { allowedPaths: [] } })).toThrow('permissions need a workspace');
  expect(team({}, [member({ permissionMode: 'bypass' })])).toThrow('permissionMode of a needs a workspace');
  expect(team({ workspace: { root }, permissions: { allowedPaths: [{ path: '../x', tool: '*' }] } })).toThrow(
    'permissions.allowedPaths[0].path of the team t must be a path pattern relative to the workspace root, without ".."',
  );
  expect(team({ workspace: { root }, permissions: { allowedPaths: [{ path: 'x', tool: 'rm' }] } })).toThrow(
    'permissions.allowedPaths[0].tool of the team t must be one of "write_file", "edit_file", "*", not "rm".',
  );
  expect(team({ planApprovalTimeoutMs: 0 })).toThrow(
    'planApprovalTimeoutMs of the team t must be a whole number of ms from 1 to 2147483647 (about 24.8 days), not 0.',
  );
  expect(() => member({ permissionMode: 'ask' })).toThrow('permissionMode of the agent a must be one of');
  expect(() => member({ permissionMode: 'classifier' })).toThrow(
    'has permissionMode "classifier" but no classifier',
  );
  expect(() => member({ classifier: () => true })).toThrow('only permissionMode "classifier" uses');
  expect(() => member({ requirePlanApproval: 'yes' })).toThrow(
    'requirePlanApproval of the agent a must be true or false, not "yes".',
  );
  expect(
    team({ workspace: { root }, permissions: { allowedPaths: [{ path: 'src/**', tool: '*' }] } }),
  ).not.toThrow();
});
