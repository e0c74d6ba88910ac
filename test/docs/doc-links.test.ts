// Every relative link and #anchor of README.md and docs/ resolves; a broken one fails here.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { anchorsOf, brokenLinks, markdownFiles, slug } from './doc-links.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('every relative link and anchor of the README and docs/ resolves', () => {
  const files = markdownFiles(ROOT);
  expect(files).toContain('README.md');
  expect(files).toContain('docs/guide/README.md');
  const broken = files.flatMap((file) =>
    brokenLinks(ROOT, file, readFileSync(path.join(ROOT, file), 'utf8')),
  );
  expect(broken).toEqual([]);
});

test('headings make the anchors GitHub makes', () => {
  expect(slug('Testing your team: `agent-teams/testing`')).toBe('testing-your-team-agent-teamstesting');
  expect(slug('What the Studio refuses')).toBe('what-the-studio-refuses');
  expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n### B, c!')]).toEqual(['a', 'a-1', 'b-c']);
});

test('a missing file, a missing anchor and a link out of the repository are each reported', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'doc-links-'));
  try {
    mkdirSync(path.join(root, 'docs/guide'), { recursive: true });
    writeFileSync(path.join(root, 'docs/guide/a.md'), '# Page A\n\n## Its part\n');
    const readme = [
      '# Home',
      '[fine](docs/guide/a.md#its-part) and [fine too](#home) and [web](https://example.com/x)',
      '[gone](docs/guide/b.md)',
      '[no anchor](docs/guide/a.md#no-such-part)',
      '[out](../elsewhere.md)',
      '`[in code](nowhere.md)` is not a link',
      '```',
      '[in a block](nowhere.md)',
      '```',
    ].join('\n');
    writeFileSync(path.join(root, 'README.md'), readme);
    expect(markdownFiles(root)).toEqual(['README.md', 'docs/guide/a.md']);
    expect(brokenLinks(root, 'README.md', readme)).toEqual([
      'README.md:3: docs/guide/b.md (no such file)',
      'README.md:4: docs/guide/a.md#no-such-part (no heading makes the anchor #no-such-part)',
      'README.md:5: ../elsewhere.md (outside the repository)',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
