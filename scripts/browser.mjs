#!/usr/bin/env node
// The Chromium the browser tests drive (playwright-core cannot download its own on these machines).
// Looked for in this order: CHROMIUM_PATH (when set it must exist), /usr/bin/chromium, then
// chromium, chromium-browser, google-chrome, google-chrome-stable on PATH.
//
// `node scripts/browser.mjs ensure` (run by `npm run test:e2e` before anything else): finds one, or
// installs Debian's `chromium` with apt-get when running as root on Debian/Ubuntu, or else prints
// one line saying what to run and exits 1, so the browser tests never start without a browser.
// `node scripts/browser.mjs path` prints the path found (for `.ci/run` to print its version).
//
// MUSTER_BROWSER_CANDIDATES, for tests only: replaces the built-in list after CHROMIUM_PATH with
// its own (separated like PATH; an entry with a slash is a file, else a name looked up on PATH), so
// a test can make this machine look like one without a browser.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BROWSER_CANDIDATES = ['/usr/bin/chromium', 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

const TO_SET_IT = 'set CHROMIUM_PATH to a Chromium or Chrome binary';

/** An executable regular file. */
export function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `dir/name` on env.PATH that `exists`, else null. */
export function searchPath(name, env = process.env, exists = isExecutableFile) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && exists(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

function candidates(env) {
  const override = env.MUSTER_BROWSER_CANDIDATES;
  if (override === undefined) return BROWSER_CANDIDATES;
  return override.split(path.delimiter).filter(Boolean);
}

/**
 * The browser's path, or null when there is none. Throws when CHROMIUM_PATH names no executable:
 * someone asked for that browser, so another one would hide their mistake.
 */
export function findBrowser({ env = process.env, exists = isExecutableFile, which = (name) => searchPath(name, env, exists) } = {}) {
  const asked = env.CHROMIUM_PATH;
  if (asked) {
    if (exists(asked)) return asked;
    throw new Error(`CHROMIUM_PATH is "${asked}", but there is no executable file there: ${TO_SET_IT}, or unset it.`);
  }
  for (const candidate of candidates(env)) {
    const found = candidate.includes('/') ? (exists(candidate) ? candidate : null) : which(candidate);
    if (found) return found;
  }
  return null;
}

/** The one line for a machine without a browser: what to run there. */
export function missingBrowserMessage({ apt, root }) {
  if (apt) return `Browser tests need Chromium: run "${root ? '' : 'sudo '}apt-get install -y chromium" (Debian/Ubuntu) or ${TO_SET_IT}.`;
  return `Browser tests need Chromium: install Chromium or Google Chrome, or ${TO_SET_IT}.`;
}

/** The browser's path; throws the one-line message when there is none (for the test support code). */
export function requireBrowser({ env = process.env, exists = isExecutableFile } = {}) {
  const found = findBrowser({ env, exists });
  if (found) return found;
  throw new Error(missingBrowserMessage({ apt: searchPath('apt-get', env, exists) !== null, root: process.getuid?.() === 0 }));
}

function runCommand(command, args, env) {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status ?? 1;
}

/** Find the browser or install it (root on Debian/Ubuntu); answers the exit code, 0 when there is one. */
export function ensureBrowser({
  env = process.env,
  exists = isExecutableFile,
  isRoot = process.getuid?.() === 0,
  run = runCommand,
  print = (line) => console.log(line),
  fail = (line) => console.error(line),
} = {}) {
  const find = () => findBrowser({ env, exists });
  let found;
  try {
    found = find();
  } catch (error) {
    fail(error.message);
    return 1;
  }
  if (!found) {
    const apt = searchPath('apt-get', env, exists);
    if (!apt || !isRoot) {
      fail(missingBrowserMessage({ apt: apt !== null, root: isRoot }));
      return 1;
    }
    print('[browser] no Chromium found: installing it (apt-get install -y chromium)');
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () => run(apt, ['install', '-y', '-qq', 'chromium'], aptEnv) === 0;
    // A fresh machine's package lists are often empty or stale: update only when the install needs it.
    const installed = install() || (run(apt, ['update', '-qq'], aptEnv) === 0 && install());
    found = installed ? find() : null;
    if (!found) {
      fail(`Browser tests need Chromium: "apt-get install -y chromium" did not install it (see above); fix that or ${TO_SET_IT}.`);
      return 1;
    }
  }
  print(`[browser] ${found}`);
  return 0;
}

function main(mode) {
  if (mode === 'ensure') return ensureBrowser();
  if (mode === 'path') {
    try {
      console.log(requireBrowser());
      return 0;
    } catch (error) {
      console.error(error.message);
      return 1;
    }
  }
  console.error('usage: node scripts/browser.mjs ensure | path');
  return 2;
}

const invokedAs = process.argv[1] ? fs.realpathSync(process.argv[1]) : '';
if (invokedAs === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv[2]);
