import { Agent, FileStore, Team } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';

// Every option in ms takes 1 to 2,147,483,647 (the longest wait Node's timers take, about
// 24.8 days): a larger one is refused where it is given, naming it, before anything starts.
const MAX = 2 ** 31 - 1;
const model = scriptedModel(['ok']);
const lead = new Agent({ name: 'lead', model, instructions: '' });
const members = [new Agent({ name: 'a', model, instructions: '' })];
const team = (options: Record<string, unknown>) => new Team({ name: 't', lead, members, ...options });
const range = 'a whole number of ms from 1 to 2147483647 (about 24.8 days)';

test.each([
  [
    'turnTimeoutMs',
    (ms: number) => team({ turnTimeoutMs: ms }),
    `turnTimeoutMs of the team t must be ${range}`,
  ],
  [
    'planApprovalTimeoutMs',
    (ms: number) => team({ planApprovalTimeoutMs: ms }),
    `planApprovalTimeoutMs of the team t must be ${range}`,
  ],
  [
    'permissionTimeoutMs',
    (ms: number) => team({ permissionTimeoutMs: ms }),
    `permissionTimeoutMs of the team t must be ${range}`,
  ],
  [
    'questionTimeoutMs',
    (ms: number) => team({ questionTimeoutMs: ms }),
    `questionTimeoutMs of the team t must be ${range}`,
  ],
  [
    'budget.maxDurationMs',
    (ms: number) => team({ budget: { maxDurationMs: ms } }),
    'budget.maxDurationMs of the team t must be a number of ms above 0 and at most 2147483647 (about 24.8 days)',
  ],
  [
    'an agent’s turnTimeoutMs',
    (ms: number) => new Agent({ name: 'b', model, instructions: '', turnTimeoutMs: ms }),
    `turnTimeoutMs of the agent b must be ${range}`,
  ],
  [
    'a FileStore’s lock.stale',
    (ms: number) => new FileStore({ lock: { stale: ms } }),
    `lock.stale of a FileStore must be ${range}`,
  ],
  [
    'a FileStore’s lock.timeout',
    (ms: number) => new FileStore({ lock: { timeout: ms } }),
    `lock.timeout of a FileStore must be ${range}`,
  ],
  [
    'a scripted model’s latencyMs',
    (ms: number) => scriptedModel([], { latencyMs: ms }),
    'latencyMs of scriptedModel must be a number of ms from 0 to 2147483647, or a function of the call answering one',
  ],
] as const)('%s: 2³¹ ms and more are refused; 2³¹ − 1 is taken', (_name, make, message) => {
  for (const ms of [2 ** 31, 1e12, Number.POSITIVE_INFINITY]) {
    expect(() => make(ms)).toThrow(
      expect.objectContaining({
        code: 'invalid-option',
        message: expect.stringContaining(`${message}, not `),
      }),
    );
  }
  expect(() => make(MAX)).not.toThrow();
});
