#!/usr/bin/env node
// Compile the server to plain JavaScript (dist/server/main.js) so `npm start` and a service
// manager run it with `node` alone: no TypeScript loader at run time. Packages stay external
// (node_modules is there at run time); only our own server/ and common/ code is bundled.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  absWorkingDir: root,
  entryPoints: { main: 'server/main.ts' },
  outdir: 'dist/server',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
