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

test('governance options are checked when the team or agent is made, each with a reason', () => {
  const root = tempFolder();
  expect(team({ workspace: { root: path.join(root, 'missing') } })).toThrow('is not an existing folder');
  expect(team({ workspace: { root, readOnly: true } })).toThrow('Unknown option "readOnly" for workspace');
  expect(team({ permissions: { allowedPaths: [] } })).toThrow('permissions need a workspace');
  expect(team({}, [member({ permissionMode: 'bypass' })])).toThrow('permissionMode of a needs a workspace');
  expect(team({ workspace: { root }, permissions: { allowedPaths: [{ path: '../x', tool: '*' }] } })).toThrow(
    'must be relative to the workspace root, without ".."',
  );
  expect(team({ workspace: { root }, permissions: { allowedPaths: [{ path: 'x', tool: 'rm' }] } })).toThrow(
    'permissions.allowedPaths[0].tool must be one of write_file, edit_file, *.',
  );
  expect(team({ planApprovalTimeoutMs: 0 })).toThrow('planApprovalTimeoutMs must be a whole number of ms');
  expect(() => member({ permissionMode: 'ask' })).toThrow('permissionMode of a must be one of');
  expect(() => member({ permissionMode: 'classifier' })).toThrow(
    'has permissionMode "classifier" but no classifier',
  );
  expect(() => member({ classifier: () => true })).toThrow('only permissionMode "classifier" uses');
  expect(() => member({ requirePlanApproval: 'yes' })).toThrow(
    'requirePlanApproval of a must be true or false',
  );
  expect(
    team({ workspace: { root }, permissions: { allowedPaths: [{ path: 'src/**', tool: '*' }] } }),
  ).not.toThrow();
});
