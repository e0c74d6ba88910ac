import {
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { ScriptedCall } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { startScript } from '../helpers/child.js';
import { byAgent, createTask, type TestTeamOptions, testTeam, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

type Call = ReturnType<typeof tool>;
type Answer = { success: boolean; error?: string; path?: string; content?: string; files?: string[] };

/** A workspace `root` holding docs/, src/secret.txt and src/key.txt, and an empty folder `outside` it. */
function jail() {
  const base = tempFolder();
  const root = path.join(base, 'work');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  mkdirSync(path.join(root, 'src'));
  mkdirSync(outside);
  writeFileSync(path.join(root, 'src/secret.txt'), 'secret\n');
  writeFileSync(path.join(root, 'src/key.txt'), 'key\n');
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
  return { root, outside, secret: () => read('src/secret.txt'), key: () => read('src/key.txt') };
}

/** Every file (or link) under `folder`, relative to it; links are not followed. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(folder, entry.name)).map((file) => `${entry.name}/${file}`)
      : [entry.name],
  );
}

const plan = (call: ScriptedCall) => {
  if (call.reason === 'start' && call.step === 0)
    return { toolCalls: [createTask({ title: 'Write', assignee: 'a' })] };
  return call.reason === 'synthesis' ? 'Final' : 'ok';
};

/**
 * A team whose member `a` makes `steps` in its first turn, one step after another (the calls
 * of one step run together), with `before` run ahead of each step; `answers()` are what the
 * file tools answered, in the order they answered.
 */
function memberTeam(steps: Call[][], options: TestTeamOptions, before: () => void = () => {}) {
  const kit = testTeam(
    byAgent({
      lead: plan,
      a: (call) => {
        const calls = call.turn === 1 ? steps[call.step] : undefined;
        if (!calls) return 'done';
        before();
        return { toolCalls: calls };
      },
    }),
    { members: ['a'], ...options },
  );
  const answers = () =>
    kit
      .of('team:tool-result')
      .filter((event) => event.data.agent === 'a')
      .map((event) => JSON.parse(event.data.output) as Answer);
  return { ...kit, answers };
}

/** A classifier that denies everything it is asked, and the paths it was asked about. */
function denying() {
  const asked: string[] = [];
  const classifier = ({ path: file }: { path: string }) => {
    asked.push(file);
    return false;
  };
  return { asked, classifier };
}

const docsOnly = { permissions: { allowedPaths: [{ path: 'docs/**', tool: '*' as const }] } };

test('a member allowed only docs/** cannot change src/ through a linked folder, a linked file or a hard link', async () => {
  const { root, secret, key } = jail();
  symlinkSync('../src', path.join(root, 'docs/link'));
  symlinkSync('../src/secret.txt', path.join(root, 'docs/alias.txt'));
  linkSync(path.join(root, 'src/key.txt'), path.join(root, 'docs/hard.txt'));
  const { asked, classifier } = denying();
  const change = (file: string, oldText = 'secret') => [
    [tool('write_file', { path: file, content: 'changed\n' })],
    [tool('edit_file', { path: file, oldText, newText: 'changed' })],
  ];
  const { team, answers } = memberTeam(
    [
      ...change('docs/link/secret.txt'),
      ...change('docs/alias.txt'),
      ...change('docs/hard.txt', 'key'),
      [tool('read_file', { path: 'docs/link/secret.txt' })],
    ],
    { ...docsOnly, workspace: { root }, agents: { a: { permissionMode: 'classifier', classifier } } },
  );
  await team.run({ input: 'go' });
  const denied = (what: string) => `Permission to ${what} src/secret.txt was denied by the classifier.`;
  const hardLinked =
    'docs/hard.txt is a file with 2 names (hard links): a change here would change it under its other names too. Refused: write to a new file instead.';
  expect(answers().map((answer) => answer.error)).toEqual([
    denied('write_file'),
    denied('edit_file'),
    denied('write_file'),
    denied('edit_file'),
    hardLinked,
    hardLinked,
    undefined,
  ]);
  // Permission was asked where the change would land, never where the path seemed to lead.
  expect(asked).toEqual(Array(4).fill('src/secret.txt'));
  expect(answers()[6]).toMatchObject({ success: true, path: 'src/secret.txt', content: 'secret\n' });
  expect(secret()).toBe('secret\n');
  expect(key()).toBe('key\n');
});

test('a link inside the workspace to another allowed place still works, checked where it lands', async () => {
  const { root, secret } = jail();
  mkdirSync(path.join(root, 'docs/v2'));
  writeFileSync(path.join(root, 'docs/v2/a.md'), 'one\n');
  symlinkSync('v2', path.join(root, 'docs/latest'));
  symlinkSync('v2/a.md', path.join(root, 'docs/current.md'));
  const { asked, classifier } = denying();
  const { team, answers } = memberTeam(
    [
      [tool('write_file', { path: 'docs/latest/b.md', content: 'b\n' })],
      [tool('edit_file', { path: 'docs/current.md', oldText: 'one', newText: 'two' })],
      [tool('write_file', { path: 'docs/latest/new/c.md', content: 'c\n' })],
      [tool('list_files', { pattern: 'docs/**' })],
    ],
    { ...docsOnly, workspace: { root }, agents: { a: { permissionMode: 'classifier', classifier } } },
  );
  await team.run({ input: 'go' });
  expect(answers()).toMatchObject([
    { success: true, path: 'docs/v2/b.md' },
    { success: true, path: 'docs/v2/a.md' },
    { success: true, path: 'docs/v2/new/c.md' },
    // Links are listed, not followed.
    {
      success: true,
      files: ['docs/current.md', 'docs/latest', 'docs/v2/a.md', 'docs/v2/b.md', 'docs/v2/new/c.md'],
    },
  ]);
  expect(asked).toEqual([]);
  expect(readFileSync(path.join(root, 'docs/v2/a.md'), 'utf8')).toBe('two\n');
  expect(readFileSync(path.join(root, 'docs/v2/new/c.md'), 'utf8')).toBe('c\n');
  expect(lstatSync(path.join(root, 'docs/current.md')).isSymbolicLink()).toBe(true);
  expect(secret()).toBe('secret\n');
});

test('edit_file refuses a result over the write limit and changes nothing', async () => {
  const { root } = jail();
  writeFileSync(path.join(root, 'docs/big.md'), `${'x'.repeat(150_000)}grow`);
  const { team, answers } = memberTeam(
    [[tool('edit_file', { path: 'docs/big.md', oldText: 'grow', newText: 'y'.repeat(60_000) })]],
    { workspace: { root }, agents: { a: { permissionMode: 'bypass' } } },
  );
  await team.run({ input: 'go' });
  expect(answers()[0]?.error).toBe(
    'The edit would make docs/big.md 210000 characters long, over the limit of 200000: refused.',
  );
  expect(readFileSync(path.join(root, 'docs/big.md'), 'utf8')).toBe(`${'x'.repeat(150_000)}grow`);
});

test('a folder swapped for a link out of the workspace while a classifier is awaited: nothing lands outside', async () => {
  const { root, outside } = jail();
  const box = path.join(root, 'docs/box');
  mkdirSync(path.join(box, 'deep'), { recursive: true });
  writeFileSync(path.join(box, 'e.txt'), 'inside\n');
  mkdirSync(path.join(outside, 'deep'));
  writeFileSync(path.join(outside, 'e.txt'), 'inside\n');
  const restore = () => {
    if (lstatSync(box).isSymbolicLink()) {
      unlinkSync(box);
      renameSync(`${box}-away`, box);
    }
  };
  const classifier = () => {
    // The check is done: now the folder steps aside and a link out takes its place.
    renameSync(box, `${box}-away`);
    symlinkSync(outside, box);
    return true;
  };
  const changed = (file: string) =>
    `${file} changed while it was written (a folder on its way is now a link, or moved): nothing was written. Try again.`;
  const { team, answers } = memberTeam(
    [
      [tool('write_file', { path: 'docs/box/new.txt', content: 'x' })],
      [tool('write_file', { path: 'docs/box/deep/new.txt', content: 'x' })],
      [tool('write_file', { path: 'docs/box/fresh/new.txt', content: 'x' })],
      [tool('edit_file', { path: 'docs/box/e.txt', oldText: 'inside', newText: 'changed' })],
    ],
    { workspace: { root }, agents: { a: { permissionMode: 'classifier', classifier } } },
    restore,
  );
  await team.run({ input: 'go' });
  restore();
  expect(answers().map((answer) => answer.error)).toEqual([
    changed('docs/box/new.txt'),
    changed('docs/box/deep/new.txt'),
    changed('docs/box/fresh/new.txt'),
    changed('docs/box/e.txt'),
  ]);
  expect(filesUnder(outside)).toEqual(['e.txt']);
  expect(readdirSync(path.join(outside, 'deep'))).toEqual([]);
  expect(readFileSync(path.join(outside, 'e.txt'), 'utf8')).toBe('inside\n');
  expect(readFileSync(path.join(box, 'e.txt'), 'utf8')).toBe('inside\n');
});

test('200 writes while another process keeps swapping a folder for a link out of the workspace: none lands outside', async () => {
  const { root, outside } = jail();
  const box = path.join(root, 'docs/box');
  mkdirSync(box);
  writeFileSync(path.join(box, 'known.txt'), 'inside\n');
  writeFileSync(path.join(outside, 'known.txt'), 'OUTSIDE\n');
  writeFileSync(path.join(outside, 'outside-only.txt'), 'OUTSIDE\n');
  const writes = Array.from({ length: 200 }, (_, index) =>
    tool('write_file', { path: `docs/box/f-${index}.txt`, content: `${index}\n` }),
  );
  // Ten steps of 20 writes, each with reads and listings of the folder.
  const steps = Array.from({ length: 10 }, (_, step) => [
    ...writes.slice(step * 20, step * 20 + 20),
    tool('read_file', { path: 'docs/box/known.txt' }),
    tool('read_file', { path: 'docs/box/known.txt' }),
    tool('list_files', { pattern: 'docs/**' }),
  ]);
  const swapper = startScript(path.join(import.meta.dirname, 'fixtures/swap-folder.mjs'), [box, outside]);
  await swapper.line(/^swapping$/);
  const { team, of } = memberTeam(steps, {
    ...docsOnly,
    workspace: { root },
    agents: { a: { maxIterations: 11 } },
  });
  await team.run({ input: 'go' });
  await swapper.end();
  const swaps = Number((await swapper.line(/^swaps \d+$/)).split(' ')[1]);

  const results = of('team:tool-result')
    .filter((event) => event.data.agent === 'a')
    .map((event) => ({
      tool: event.data.toolName,
      answer: JSON.parse(event.data.output) as Answer,
    }));
  const written = results.filter((result) => result.tool === 'write_file');
  const landedOutside = filesUnder(outside).filter(
    (file) => !['known.txt', 'outside-only.txt'].includes(file),
  );
  const inside = filesUnder(root);
  const succeeded = written.filter((result) => result.answer.success);
  const reasons = new Map<string, number>();
  for (const { answer } of written) {
    const reason = answer.error?.replace(/^docs\/box\/f-\d+\.txt /, '').slice(0, 40) ?? 'written';
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  // The figures docs/reliability.md gives.
  console.log(`${swaps} swaps; ${landedOutside.length} of 200 outside;`, Object.fromEntries(reasons));
  expect(swaps).toBeGreaterThan(0);
  expect(written).toHaveLength(200);
  expect(landedOutside).toEqual([]);
  expect(readFileSync(path.join(outside, 'known.txt'), 'utf8')).toBe('OUTSIDE\n');
  // Each write that says it wrote did, inside (in the folder, or where the adversary moved it).
  for (const { answer } of succeeded) {
    const name = path.basename(answer.path as string);
    const found = inside.filter((file) => path.basename(file) === name);
    expect(found).toHaveLength(1);
    expect(readFileSync(path.join(root, found[0] as string), 'utf8')).toBe(`${name.slice(2, -4)}\n`);
  }
  // Each refused write says why, and left no file.
  written.forEach(({ answer }, index) => {
    if (answer.success) return;
    expect(answer.error).toMatch(
      /changed while it was written|leads out of the workspace|goes through a link/,
    );
    const name = answer.error?.match(/f-\d+\.txt/)?.[0];
    expect(
      inside.filter((file) => path.basename(file) === name),
      `write ${index}`,
    ).toEqual([]);
  });
  // Reads and listings never showed what is outside.
  for (const { tool: name, answer } of results.filter((result) => result.tool !== 'write_file')) {
    if (name === 'read_file' && answer.success) expect(answer.content).toBe('inside\n');
    if (name === 'list_files') expect(answer.files?.join() ?? '').not.toContain('outside-only');
  }
});
