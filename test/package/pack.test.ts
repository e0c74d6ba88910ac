import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

// What `npm pack` would put in the package (the build in dist/ is made by the test setup).
const packed: string[] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root }).toString(),
)[0].files.map((file: { path: string }) => file.path);

test('the package holds the build, the sources its maps point at, the examples, README, LICENSE', () => {
  for (const file of [
    'package.json',
    'README.md',
    'LICENSE',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/testing.js',
    'dist/testing.d.ts',
    'dist/postgres.js',
    'dist/cli/main.js',
    'src/index.ts',
  ]) {
    expect(packed).toContain(file);
  }
  for (const example of readdirSync(path.join(root, 'examples')))
    expect(packed).toContain(`examples/${example}`);
  expect(readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(
    /^MIT License\n\nCopyright \(c\) \d{4} agent-teams contributors\n/,
  );
});

test('no tests, benchmarks, docs or CI files are packed', () => {
  expect(packed.filter((file) => /^(test|bench|docs|\.ci|node_modules)\//.test(file))).toEqual([]);
  expect(packed.filter((file) => /\.test\.ts$/.test(file))).toEqual([]);
  expect(packed.every((file) => /^(dist|src|examples)\//.test(file) || !file.includes('/'))).toBe(true);
});

test('every source map that ships has its sources shipped too', () => {
  const maps = packed.filter((file) => file.endsWith('.map'));
  expect(maps.length).toBeGreaterThan(0);
  for (const map of maps) {
    const { sources } = JSON.parse(readFileSync(path.join(root, map), 'utf8')) as { sources: string[] };
    for (const source of sources) {
      expect(packed, `${map} points at ${source}`).toContain(
        path.posix.join(path.posix.dirname(map), source),
      );
    }
  }
});

test('package.json: both entry points for import and require, peers, and where it lives', () => {
  for (const entry of ['.', './testing']) {
    expect(Object.keys(manifest.exports[entry])).toEqual(['types', 'default']);
  }
  for (const peer of ['ai', 'zod']) {
    expect(manifest.peerDependencies[peer]).toBeDefined();
    expect(manifest.devDependencies[peer]).toBe(manifest.peerDependencies[peer]);
    expect(manifest.dependencies[peer]).toBeUndefined();
  }
  expect(manifest.license).toBe('MIT');
  expect(manifest.homepage).toBe('https://www.npmjs.com/package/agent-teams');
  expect(manifest.repository).toEqual({ type: 'git', url: 'https://www.npmjs.com/package/agent-teams' });
  expect(manifest.keywords).toContain('agents');
});
