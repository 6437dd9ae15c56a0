#!/usr/bin/env node
// Build the web app only when it is missing or older than its sources, so `npm start` and the
// browser tests never serve a stale bundle and never pay for a build they don't need.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist', 'web', 'index.html');
const sources = ['web', 'common', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(root, p));

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

function buildReason() {
  if (!fs.existsSync(builtIndex)) return 'no build found';
  const builtAt = fs.statSync(builtIndex).mtimeMs;
  const changed = sources.find((s) => newestMtime(s) > builtAt);
  return changed ? `${path.relative(root, changed)} changed since the last build` : null;
}

const reason = buildReason();
if (!reason) {
  console.log('[ensure-build] web app is up to date');
  process.exit(0);
}
console.log(`[ensure-build] building the web app (${reason})`);
// Always a production bundle, even when called from a test runner that sets NODE_ENV=test.
const result = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
if (result.error) {
  console.error(`[ensure-build] could not run vite: ${result.error.message}`);
  process.exit(1);
}
if (result.status !== 0) {
  console.error(`[ensure-build] vite build failed (exit ${result.status ?? result.signal})`);
  process.exit(result.status || 1);
}
