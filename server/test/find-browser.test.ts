// scripts/browser.mjs: where `npm test` looks for Chromium, and what it says or does without one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBrowser, findBrowser, missingBrowserMessage } from '../../scripts/browser.mjs';

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/browser.mjs');
const DEBIAN_LINE = 'Browser tests need Chromium: run "sudo apt-get install -y chromium" (Debian/Ubuntu) or set CHROMIUM_PATH to a Chromium or Chrome binary.';
const OTHER_LINE = 'Browser tests need Chromium: install Chromium or Google Chrome, or set CHROMIUM_PATH to a Chromium or Chrome binary.';

/** A machine whose executable files are exactly `files`, with PATH /opt/bin:/usr/bin. */
function machine(files: string[], env: NodeJS.ProcessEnv = {}) {
  const present = new Set(files);
  return { env: { PATH: '/opt/bin:/usr/bin', ...env }, exists: (file: string) => present.has(file) };
}

describe('findBrowser', () => {
  it('takes CHROMIUM_PATH first, then /usr/bin/chromium, then chromium, chromium-browser, google-chrome, google-chrome-stable on PATH', () => {
    const all = [
      '/custom/chrome',
      '/usr/bin/chromium',
      '/opt/bin/chromium',
      '/usr/bin/chromium-browser',
      '/opt/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
    ];
    const order = [
      ['/custom/chrome', { CHROMIUM_PATH: '/custom/chrome' }],
      ['/usr/bin/chromium', {}],
      ['/opt/bin/chromium', {}],
      ['/usr/bin/chromium-browser', {}],
      ['/opt/bin/google-chrome', {}],
      ['/usr/bin/google-chrome-stable', {}],
    ] as const;
    // Each answer, then the same machine without it: the next one in the list is taken.
    let files = all;
    for (const [expected, env] of order) {
      expect(findBrowser(machine(files, env))).toBe(expected);
      files = files.filter((f) => f !== expected);
    }
    expect(findBrowser(machine(files))).toBeNull();
  });

  it('looks names up in PATH order', () => {
    expect(findBrowser(machine(['/usr/bin/google-chrome', '/opt/bin/google-chrome']))).toBe('/opt/bin/google-chrome');
  });

  it('asks the injected which for names', () => {
    const asked: string[] = [];
    const which = (name: string) => {
      asked.push(name);
      return name === 'google-chrome' ? '/somewhere/google-chrome' : null;
    };
    expect(findBrowser({ env: {}, exists: () => false, which })).toBe('/somewhere/google-chrome');
    expect(asked).toEqual(['chromium', 'chromium-browser', 'google-chrome']);
  });

  it('refuses a CHROMIUM_PATH with nothing there, naming it, rather than taking another browser', () => {
    const m = machine(['/usr/bin/chromium'], { CHROMIUM_PATH: '/no/such/chrome' });
    expect(() => findBrowser(m)).toThrow('CHROMIUM_PATH is "/no/such/chrome", but there is no executable file there');
  });

  it('takes MUSTER_BROWSER_CANDIDATES instead of the built-in list (tests only)', () => {
    const files = ['/usr/bin/chromium', '/elsewhere/chrome'];
    expect(findBrowser(machine(files, { MUSTER_BROWSER_CANDIDATES: '' }))).toBeNull();
    expect(findBrowser(machine(files, { MUSTER_BROWSER_CANDIDATES: '/elsewhere/chrome' }))).toBe('/elsewhere/chrome');
  });
});

describe('ensureBrowser', () => {
  function ensure(options: { files: string[]; isRoot: boolean; apt?: (args: string[], files: string[]) => number }) {
    const calls: string[] = [];
    const printed: string[] = [];
    const failed: string[] = [];
    const files = [...options.files];
    const code = ensureBrowser({
      env: { PATH: '/opt/bin:/usr/bin' },
      exists: (file) => files.includes(file),
      isRoot: options.isRoot,
      run: (command, args, env) => {
        calls.push(`${command} ${args.join(' ')} (${env.DEBIAN_FRONTEND})`);
        return options.apt?.(args, files) ?? 1;
      },
      print: (line) => printed.push(line),
      fail: (line) => failed.push(line),
    });
    return { code, calls, printed, failed };
  }

  it('prints only the path found, and installs nothing, when there is a browser', () => {
    const result = ensure({ files: ['/usr/bin/apt-get', '/usr/bin/chromium'], isRoot: true });
    expect(result).toEqual({ code: 0, calls: [], printed: ['[browser] /usr/bin/chromium'], failed: [] });
  });

  it('as root on Debian installs chromium, updating the package lists only when the install fails', () => {
    let updated = false;
    const result = ensure({
      files: ['/usr/bin/apt-get'],
      isRoot: true,
      apt: (args, files) => {
        if (args[0] === 'update') {
          updated = true;
          return 0;
        }
        if (!updated) return 100; // stale package lists
        files.push('/usr/bin/chromium');
        return 0;
      },
    });
    expect(result.calls).toEqual([
      '/usr/bin/apt-get install -y -qq chromium (noninteractive)',
      '/usr/bin/apt-get update -qq (noninteractive)',
      '/usr/bin/apt-get install -y -qq chromium (noninteractive)',
    ]);
    expect(result.code).toBe(0);
    expect(result.printed.at(-1)).toBe('[browser] /usr/bin/chromium');
    expect(result.failed).toEqual([]);
  });

  it('as root, when apt-get cannot install it, stops with one line', () => {
    const result = ensure({ files: ['/usr/bin/apt-get'], isRoot: true, apt: () => 100 });
    expect(result.calls).toHaveLength(2); // install, update; no second install after a failed update
    expect(result.code).toBe(1);
    expect(result.failed).toEqual([
      'Browser tests need Chromium: "apt-get install -y chromium" did not install it (see above); fix that or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    ]);
  });

  it('not as root, tries no apt-get and says what to run', () => {
    const result = ensure({ files: ['/usr/bin/apt-get'], isRoot: false });
    expect(result).toEqual({ code: 1, calls: [], printed: [], failed: [DEBIAN_LINE] });
  });

  it('as root without apt-get, tries nothing and says what to do', () => {
    const result = ensure({ files: [], isRoot: true });
    expect(result).toEqual({ code: 1, calls: [], printed: [], failed: [OTHER_LINE] });
  });

  it('the line the test support code throws (requireBrowser) says sudo only when not root', () => {
    expect(missingBrowserMessage({ apt: true, root: false })).toBe(DEBIAN_LINE);
    expect(missingBrowserMessage({ apt: true, root: true })).toBe(DEBIAN_LINE.replace('sudo ', ''));
    expect(missingBrowserMessage({ apt: false, root: false })).toBe(OTHER_LINE);
  });
});

describe('node scripts/browser.mjs ensure, on a machine without a browser', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-find-browser-'));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  fs.chmodSync(scratch, 0o755); // readable by the unprivileged user the CLI runs as below
  const emptyBin = path.join(scratch, 'empty');
  fs.mkdirSync(emptyBin);
  // An apt-get that only reports being called: the CLI must not get that far when not root.
  const aptBin = path.join(scratch, 'apt');
  fs.mkdirSync(aptBin);
  fs.writeFileSync(
    path.join(aptBin, 'apt-get'),
    `#!${process.execPath}\nconsole.error('apt-get was called: ' + process.argv.slice(2).join(' '));\nprocess.exit(100);\n`,
    { mode: 0o755 },
  );

  // Not root: as ourselves, or, when these tests run as root, as nobody.
  const asNonRoot = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  function runCli(pathDir: string) {
    const env: NodeJS.ProcessEnv = { PATH: pathDir, MUSTER_BROWSER_CANDIDATES: '' };
    return spawnSync(process.execPath, [SCRIPT, 'ensure'], { env, cwd: scratch, encoding: 'utf8', ...asNonRoot });
  }

  it('prints exactly one line saying what to run, exits 1, and calls no apt-get (Debian/Ubuntu)', () => {
    const result = runCli(aptBin);
    expect(result.stderr).toBe(`${DEBIAN_LINE}\n`);
    expect(result.stdout).toBe('');
    expect(result.status).toBe(1);
  });

  it('prints exactly one line saying what to do, and exits 1, elsewhere', () => {
    const result = runCli(emptyBin);
    expect(result.stderr).toBe(`${OTHER_LINE}\n`);
    expect(result.stdout).toBe('');
    expect(result.status).toBe(1);
  });

  it('stops on a CHROMIUM_PATH that names no file, with one line naming it', () => {
    const result = spawnSync(process.execPath, [SCRIPT, 'ensure'], { env: { PATH: emptyBin, CHROMIUM_PATH: '/no/such/chrome' }, encoding: 'utf8' });
    expect(result.stderr).toBe(
      'CHROMIUM_PATH is "/no/such/chrome", but there is no executable file there: set CHROMIUM_PATH to a Chromium or Chrome binary, or unset it.\n',
    );
    expect(result.status).toBe(1);
  });

  it.runIf(process.getuid?.() === 0)('as root, runs apt-get (update when the install fails) and then finds what it installed', () => {
    const installed = path.join(scratch, 'installed-chromium');
    const rootAptBin = path.join(scratch, 'root-apt');
    fs.mkdirSync(rootAptBin);
    const fakeApt = `#!${process.execPath}
const fs = require('node:fs');
const [command] = process.argv.slice(2);
const updated = ${JSON.stringify(path.join(scratch, 'updated'))};
console.log('apt-get ' + process.argv.slice(2).join(' ') + ' ' + process.env.DEBIAN_FRONTEND);
if (command === 'update') fs.writeFileSync(updated, '');
else if (!fs.existsSync(updated)) process.exit(100);
else fs.writeFileSync(${JSON.stringify(installed)}, '', { mode: 0o755 });
`;
    fs.writeFileSync(path.join(rootAptBin, 'apt-get'), fakeApt, { mode: 0o755 });
    const env: NodeJS.ProcessEnv = { PATH: rootAptBin, MUSTER_BROWSER_CANDIDATES: installed };
    const result = spawnSync(process.execPath, [SCRIPT, 'ensure'], { env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual([
      '[browser] no Chromium found: installing it (apt-get install -y chromium)',
      'apt-get install -y -qq chromium noninteractive',
      'apt-get update -qq noninteractive',
      'apt-get install -y -qq chromium noninteractive',
      `[browser] ${installed}`,
    ]);
    expect(result.status).toBe(0);
  });
});
