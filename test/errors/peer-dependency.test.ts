import { expect, test } from 'vitest';
import { isTeamError } from '../../src/errors/index.js';
import { importPeer } from '../../src/errors/peer-dependency.js';

// A name no registry package has, imported through a variable so TypeScript does not resolve it.
const missing = 'agent-teams-no-such-peer';
const peer = { name: missing, install: `${missing}@1`, neededBy: 'Running the thing' };

test('a peer dependency that is not installed is missing-peer-dependency, saying what to install', async () => {
  const error = await importPeer(() => import(missing), peer).catch((caught: unknown) => caught);
  expect(isTeamError(error, 'missing-peer-dependency')).toBe(true);
  expect(error).toMatchObject({
    message: `Running the thing needs the package ${missing}: npm install ${missing}@1`,
    details: { package: missing, install: `${missing}@1` },
  });
});

test('an installed peer is loaded, and any other failure is thrown as it is', async () => {
  await expect(importPeer(() => import('pg'), { ...peer, name: 'pg' })).resolves.toHaveProperty('default');
  const other = new Error('the module threw while loading');
  await expect(importPeer(() => Promise.reject(other), peer)).rejects.toBe(other);
  // Another package missing than the peer asked for is not this peer's absence.
  await expect(importPeer(() => import(missing), { ...peer, name: 'pg' })).rejects.not.toHaveProperty(
    'code',
    'missing-peer-dependency',
  );
});
