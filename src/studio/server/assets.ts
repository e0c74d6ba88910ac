import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

/**
 * The page as `npm run build` made it (Vite, into dist/studio/web), from the package's own
 * folder: the same from src/studio/server and from the build's chunks. Nothing is built when
 * the Studio starts.
 */
const WEB_FOLDER = path.join(
  path.dirname(createRequire(import.meta.url).resolve('agent-teams/package.json')),
  'dist/studio/web/',
);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/**
 * Every file of the built page, read once, by URL path. Only these are ever served, so no
 * request path can reach another file. `undefined` when the page was not built.
 */
export function loadAssets(folder = WEB_FOLDER): Map<string, Asset> | undefined {
  if (!fs.existsSync(path.join(folder, 'index.html'))) return undefined;
  const assets = new Map<string, Asset>();
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const url = `/${path.relative(folder, full).split(path.sep).join('/')}`;
    assets.set(url, {
      body: fs.readFileSync(full),
      type: TYPES[path.extname(entry.name)] ?? 'application/octet-stream',
    });
  }
  return assets;
}
