import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(folder: string): number {
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** The Studio's page (Vite, as `npm run build` makes it), built again when its sources are newer. */
function buildStudioPage(): void {
  const built =
    statSync(path.join(root, 'dist/studio/web/index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= Math.max(newest(path.join(root, 'src/studio/web')), newest(path.join(root, 'src/run'))))
    return;
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'src/studio/web/vite.config.ts'],
    { cwd: root, stdio: 'inherit' },
  );
}

/** The command tests run the built CLI: build it first (as `npm run build` does) if src/ is newer than dist/. */
export default function setup(): void {
  buildStudioPage();
  const built = statSync(path.join(root, 'dist/cli/main.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= newest(path.join(root, 'src'))) return;
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  // As `npm run build` does: the modules made into entry points and chunks (scripts/bundle.ts),
  // and the command's execute bit (tsc writes the file without it, and npx runs it directly).
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bundle.ts'], { cwd: root, stdio: 'inherit' });
  chmodSync(path.join(root, 'dist/cli/main.js'), 0o755);
}
