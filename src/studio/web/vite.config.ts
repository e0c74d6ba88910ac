import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The Studio's page, built by `npm run build` into dist/studio/web: one HTML file and its
// assets, with every dependency bundled (it works offline; nothing comes from a CDN).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative: the Studio serves the page under a path of its own, random for each launch.
  base: './',
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^node:module$/, replacement: fileURLToPath(new URL('./no-node-module.ts', import.meta.url)) },
    ],
  },
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../../dist/studio/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
});
