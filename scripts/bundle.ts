// The build's last step (npm run build, and the tests' setup): tsc's output in dist/, one
// module a source file, made into the entry points and a few shared chunks. Node loads an ES
// module for every file, and each costs its resolution and read: `import 'agent-teams'` took
// ~190 modules of this package, `agent-teams tasks` ~70. The chunks keep one copy of every
// module whatever entry loads it, and what an entry imports only when used (`import()`)
// stays out of it. The declarations (.d.ts) stay tsc's, file by file.
// Run: node --import tsx scripts/bundle.ts (after tsc -p tsconfig.build.json)
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const entries = ['index.js', 'testing.js', 'postgres.js', 'cli/main.js'];

/** tsc's JavaScript files and maps in dist/ (the Studio's page, built apart, is left alone). */
function compiled(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return full === path.join(dist, 'studio/web') ? [] : compiled(full);
    return /\.js(\.map)?$/.test(entry.name) ? [full] : [];
  });
}

const before = compiled(dist);
const result = await build({
  absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
  entryPoints: entries.map((entry) => path.join(dist, entry)),
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies and peers are loaded from node_modules, as before.
  packages: 'external',
  // Chunks one folder down, as the modules were: their paths relative to import.meta.url hold.
  chunkNames: 'chunks/[name]-[hash]',
  // Class and function names as written (errors and stack traces name them).
  keepNames: true,
  // Chained to tsc's maps: a stack trace points at src/.
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});
const written = new Set(
  Object.keys(result.metafile.outputs).flatMap((file) => {
    const full = path.resolve(file);
    return [full, `${full}.map`];
  }),
);
// The per-file modules the chunks were made from are not shipped.
for (const file of before) if (!written.has(file)) rmSync(file);
