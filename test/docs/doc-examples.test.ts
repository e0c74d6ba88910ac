// The documentation's TypeScript, tested: every block of README.md and docs/guide/ is
// type-checked against the package, the ones marked `runnable` run on the testing kit (no
// network, no key), and a stale or broken example fails here. The real blocks and two broken
// ones go through one type-check (one program: the package's types are read once).
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  blocksOf,
  type DocBlock,
  documentedFiles,
  extractBlocks,
  removeBlocks,
  runBlock,
  typeErrors,
  type WrittenBlock,
  writeBlocks,
} from './doc-blocks.js';

const files = documentedFiles();
const blocks = blocksOf(files);
const checked = blocks.filter((block) => block.mark !== 'fragment');
const runnable = blocks.filter((block) => block.mark === 'runnable');
const fragments = blocks.filter((block) => block.mark === 'fragment');

/** A page with a stale example (a Team given a string for its lead) and a fragment. */
const BROKEN_PAGE = [
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
].join('\n');
const broken = extractBlocks('docs/guide/broken.md', BROKEN_PAGE);

/** A runnable example that type-checks and throws: a member with the lead's name. */
const THROWING: DocBlock = {
  file: 'docs/guide/throws.md',
  line: 12,
  mark: 'runnable',
  code: [
    "import { Agent, Team } from 'agent-teams';",
    "import { scriptedModel } from 'agent-teams/testing';",
    "const model = scriptedModel(['Done.']);",
    "const lead = new Agent({ name: 'lead', model, instructions: 'Lead.' });",
    "new Team({ name: 'broken', lead, members: [new Agent({ name: 'lead', model, instructions: 'x' })] });",
  ].join('\n'),
};

let written: WrittenBlock[] = [];
let errors: string[] = [];
beforeAll(() => {
  written = writeBlocks([...checked, ...broken.filter((block) => block.mark !== 'fragment'), THROWING]);
  errors = typeErrors(written);
}, 180_000);
afterAll(() => removeBlocks());

const errorsOf = (file: string) => errors.filter((error) => error.startsWith(`${file}:`));

test('every TypeScript block of the README and the guides type-checks, and the runnable ones run', {
  timeout: 300_000,
}, async () => {
  expect(errors.filter((error) => !error.startsWith('docs/guide/broken.md:'))).toEqual([]);
  for (const each of written)
    if (each.block.mark === 'runnable' && each.block !== THROWING) await runBlock(each);
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

test('a block with a type error fails the check, naming its file and line; a fragment is not checked', () => {
  expect(broken.map((block) => block.mark)).toEqual(['checked', 'fragment']);
  const found = errorsOf('docs/guide/broken.md');
  expect(found).toHaveLength(1);
  expect(found[0]).toMatch(/^docs\/guide\/broken\.md:5: .*Agent/);
});

test('a runnable block that throws fails the check, naming its file and line', async () => {
  expect(errorsOf(THROWING.file)).toEqual([]);
  const block = written.find((each) => each.block === THROWING);
  if (!block) throw new Error('the throwing block was not written');
  await expect(runBlock(block)).rejects.toThrow(/^docs\/guide\/throws\.md:12: the runnable block threw: /);
});

test('a mark the check does not know is refused, so a typo never skips a block', () => {
  expect(() => extractBlocks('x.md', '```ts runable\nconst a = 1;\n```')).toThrow(/x\.md:1: .*"runable"/);
});
