// The documentation's TypeScript, tested: every block of README.md and docs/guide/ is
// type-checked against the package, the ones marked `runnable` run on the testing kit (no
// network, no key), and a stale or broken example fails here.
import { expect, test } from 'vitest';
import {
  blocksOf,
  type DocBlock,
  documentedFiles,
  extractBlocks,
  removeBlocks,
  runBlock,
  typeErrors,
  writeBlocks,
} from './doc-blocks.js';

test('every TypeScript block of the README and the guides type-checks, and the runnable ones run', {
  timeout: 300_000,
}, async () => {
  const files = documentedFiles();
  const blocks = blocksOf(files);
  const checked = blocks.filter((block) => block.mark !== 'fragment');
  const runnable = blocks.filter((block) => block.mark === 'runnable');
  const fragments = blocks.filter((block) => block.mark === 'fragment');
  const written = writeBlocks(checked);
  try {
    expect(typeErrors(written)).toEqual([]);
    for (const each of written) if (each.block.mark === 'runnable') await runBlock(each);
  } finally {
    removeBlocks();
  }
  console.log(
    `doc blocks in ${files.length} files: ${blocks.length} TypeScript blocks, ${checked.length} type-checked, ` +
      `${runnable.length} of them run, ${fragments.length} fragments (neither)`,
  );
  // Every guide starts from an example a reader can run without a key: its first TypeScript block.
  for (const file of files.filter((name) => name.startsWith('docs/guide/') && !name.endsWith('README.md'))) {
    expect(blocks.find((block) => block.file === file)?.mark, `${file} starts from a runnable example`).toBe(
      'runnable',
    );
  }
  expect(fragments.length).toBeLessThanOrEqual(checked.length / 10);
});

test('a block with a type error fails the check, naming its file and line', () => {
  const blocks = extractBlocks(
    'docs/guide/broken.md',
    [
      '# Broken',
      '',
      '```ts',
      "import { Team } from 'agent-teams';",
      "const team = new Team({ name: 'x', lead: 'not an agent' });",
      '```',
      '',
      '```ts fragment',
      'this is not TypeScript at all',
      '```',
    ].join('\n'),
  );
  expect(blocks.map((block) => block.mark)).toEqual(['checked', 'fragment']);
  const written = writeBlocks(
    blocks.filter((block) => block.mark !== 'fragment'),
    'broken-types',
  );
  try {
    const errors = typeErrors(written);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^docs\/guide\/broken\.md:5: .*Agent/);
  } finally {
    removeBlocks('broken-types');
  }
});

test('a runnable block that throws fails the check, naming its file and line', async () => {
  const block: DocBlock = {
    file: 'docs/guide/broken.md',
    line: 12,
    mark: 'runnable',
    code: [
      "import { Agent, Team } from 'agent-teams';",
      "import { scriptedModel } from 'agent-teams/testing';",
      "const model = scriptedModel(['Done.']);",
      "const lead = new Agent({ name: 'lead', model, instructions: 'Lead.' });",
      // A member with the lead's name: the roster refuses it.
      "new Team({ name: 'broken', lead, members: [new Agent({ name: 'lead', model, instructions: 'x' })] });",
    ].join('\n'),
  };
  const written = writeBlocks([block], 'broken-run');
  try {
    expect(typeErrors(written)).toEqual([]);
    const [only] = written;
    if (!only) throw new Error('no block written');
    await expect(runBlock(only)).rejects.toThrow(/^docs\/guide\/broken\.md:12: the runnable block threw: /);
  } finally {
    removeBlocks('broken-run');
  }
});

test('a mark the check does not know is refused, so a typo never skips a block', () => {
  expect(() => extractBlocks('x.md', '```ts runable\nconst a = 1;\n```')).toThrow(/x\.md:1: .*"runable"/);
});
