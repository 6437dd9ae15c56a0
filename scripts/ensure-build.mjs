#!/usr/bin/env node
// Build what is missing or older than its sources, so `npm start` and the browser tests never run
// a stale web bundle or server, and never pay for a build they don't need:
// - the web app (vite) into dist/web, with the brotli and gzip copies of its text files
//   (scripts/precompress.ts, run by the vite build)
// - the server (esbuild, scripts/build-server.mjs) into dist/server/main.js
// `node scripts/ensure-build.mjs web` builds only the web app.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const targets = {
  web: {
    // The precompression step's last write (scripts/precompress.ts), so a build that stopped short,
    // or one from before that step, is built again.
    output: path.join(root, 'dist', 'web', 'index.html.br'),
    sources: ['web', 'common', 'vite.config.ts', 'scripts/precompress.ts', 'scripts/prerender-sign-in.ts', 'package-lock.json'],
    // Always a production bundle, even when called from a test runner that sets NODE_ENV=test.
    command: ['npx', ['vite', 'build']],
    typicalSeconds: 10,
  },
  server: {
    output: path.join(root, 'dist', 'server', 'main.js'),
    sources: ['server', 'common', 'scripts/build-server.mjs', 'package-lock.json'],
    command: [process.execPath, [path.join(root, 'scripts', 'build-server.mjs')]],
    typicalSeconds: 2,
  },
};

/** Newest modification time under a file or directory (0 when it does not exist). */
function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows only as a newer directory
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function buildReason(target) {
  if (!fs.existsSync(target.output)) return 'no build found';
  const builtAt = fs.statSync(target.output).mtimeMs;
  const changed = target.sources.map((s) => path.join(root, s)).find((s) => newestMtime(s) > builtAt);
  return changed ? `${path.relative(root, changed)} changed since the last build` : null;
}

const wanted = process.argv[2] ? [process.argv[2]] : Object.keys(targets);
for (const name of wanted) {
  const target = targets[name];
  if (!target) {
    console.error(`[ensure-build] unknown target ${name}`);
    process.exit(2);
  }
  const reason = buildReason(target);
  if (!reason) {
    console.log(`[ensure-build] ${name} is up to date`);
    continue;
  }
  console.log(`[ensure-build] building the ${name} (${reason}); the first build takes about ${target.typicalSeconds} s`);
  const startedAt = performance.now();
  const [cmd, args] = target.command;
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.error || result.status !== 0) {
    console.error(`[ensure-build] ${name} build failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
    process.exit(result.status || 1);
  }
  console.log(`[ensure-build] built the ${name} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
}
