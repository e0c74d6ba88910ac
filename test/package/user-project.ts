import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface LockEntry {
  name?: string;
  version: string;
  integrity?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

/** The folder a lock path's package is in: `node_modules/a/node_modules/b` is in `node_modules/a`. */
const parentOf = (at: string) => at.slice(0, Math.max(at.lastIndexOf('/node_modules/'), 0));

/** Where Node finds `name` from the package at `from`, among the lock's paths. */
function find(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; base = parentOf(base)) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
  }
}

/**
 * A lock for a project that depends on the packed tarball and on its own `ai` and `zod`: the
 * versions the repository's lock holds, at the same places. With it `npm ci --offline`
 * installs from the npm cache alone (that the repository's own `npm ci` filled): npm 11
 * resolves a project without a lock from full registry documents, which it does not cache.
 */
function userLock(tarball: string, dependencies: Record<string, string>, rootName: string) {
  const repo = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const own = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const packages: Record<string, LockEntry> = {
    '': { name: rootName, version: '1.0.0', dependencies },
    'node_modules/agent-teams': {
      version: own.version,
      resolved: `file:${path.basename(tarball)}`,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: own.license,
      dependencies: own.dependencies,
      peerDependencies: own.peerDependencies,
      peerDependenciesMeta: own.peerDependenciesMeta,
      bin: { 'agent-teams': own.bin['agent-teams'].replace(/^\.\//, '') },
      engines: own.engines,
    },
  };
  // An optional peer (pg, for the PostgresStore) is the user's to add: this project does not.
  const peers = Object.keys(own.peerDependencies).filter(
    (name) => !own.peerDependenciesMeta?.[name]?.optional,
  );
  const wanted = [...Object.keys(own.dependencies), ...peers];
  const queue: [string, string[]][] = [['node_modules/agent-teams', wanted]];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [from, names] = next;
    for (const name of names) {
      // From the tarball's folder Node looks in the project's node_modules, where the
      // repository's lock keeps the same package at the top.
      const at = find(repo.packages, from === 'node_modules/agent-teams' ? '' : from, name);
      if (!at) throw new Error(`${name}, needed by ${from}, is not in package-lock.json`);
      if (packages[at]) continue;
      const {
        dev: _dev,
        devOptional: _devOptional,
        peer: _peer,
        optional: _optional,
        ...entry
      } = repo.packages[at] as LockEntry;
      const base = at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length);
      const unscoped = base.slice(base.lastIndexOf('/') + 1);
      packages[at] = {
        resolved: `https://registry.npmjs.org/${base}/-/${unscoped}-${entry.version}.tgz`,
        ...entry,
      };
      const required = Object.keys(entry.peerDependencies ?? {}).filter(
        (peer) => !entry.peerDependenciesMeta?.[peer]?.optional,
      );
      queue.push([at, [...Object.keys(entry.dependencies ?? {}), ...required]]);
    }
  }
  return { name: rootName, version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

/**
 * Makes `folder` a user's project that installs this package as npm publishes it (`npm pack`)
 * next to its own copies of `ai` and `zod`, offline.
 */
export function installPacked(folder: string): void {
  const tarball = path.join(
    folder,
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', folder], {
      cwd: root,
      stdio: 'pipe',
    })
      .toString()
      .trim()
      .split('\n')
      .at(-1) as string,
  );
  const repo = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const version = (name: string) => `^${repo.packages[`node_modules/${name}`].version}`;
  const dependencies = {
    'agent-teams': `file:${path.basename(tarball)}`,
    ai: version('ai'),
    zod: version('zod'),
  };
  writeFileSync(
    path.join(folder, 'package.json'),
    `${JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, dependencies }, null, 2)}\n`,
  );
  writeFileSync(
    path.join(folder, 'package-lock.json'),
    `${JSON.stringify(userLock(tarball, dependencies, 'user-project'), null, 2)}\n`,
  );
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: folder, stdio: 'pipe' });
}
