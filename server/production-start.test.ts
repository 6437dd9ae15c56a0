import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './lib/project-root.ts';

/**
 * The production start as a service manager runs it: `node --max-semi-space-size=64
 * dist/server/main.js` (decision 057), compiled, no TypeScript loader and no shell in between;
 * SIGTERM drains requests in flight and exits 0.
 */
const START = 'node --max-semi-space-size=64 dist/server/main.js';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-prod-'));
fs.chmodSync(dataDir, 0o755);
let server: ChildProcess;
let port = 0;
let output = '';
/** What it printed until it was ready (the setup code out). */
let startOutput = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

beforeAll(async () => {
  // dist/server/main.js is built once for the run by server/test/global-setup.ts.
  server = spawn(process.execPath, START.split(' ').slice(1), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', EMBEDDED_PG_PORT: '56700', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      // Started once the setup code, printed after the listening line, is out too.
      if (!startOutput && m && /^Setup code: \S+$/m.test(output.slice(m.index))) {
        port = Number(m[1]);
        startOutput = output;
        resolve();
      }
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
    setTimeout(() => reject(new Error(`no start in 60 s: ${output}`)), 60_000).unref();
  });
}, 90_000);
afterAll(() => {
  if (server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('production start', () => {
  it('runs compiled JavaScript with plain node, prints the setup code and where its data is', async () => {
    expect(fs.existsSync(path.join(PROJECT_ROOT, 'dist', 'server', 'main.js'))).toBe(true);
    expect(output).toMatch(/^Setup code: \S+$/m);
    expect(output).toContain(`backups: ${path.join(dataDir, 'backups')}`);
    const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(START);
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
    expect(ready.status).toBe(200);
  });

  it('prints the setup code last, and again with the address after the first request, so build output does not scroll it away', async () => {
    // The request log's JSON lines are written asynchronously (pino) and may land after the code on a
    // busy machine; what a person reads is the plain lines, and the code must be the last of those.
    const lines = (text: string) =>
      text
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('{'));
    const code = /^Setup code: (\S+)$/m.exec(output)![1];
    const atStart = startOutput;
    // The request of the test above was the first: the code comes again, below that request's log line.
    const deadline = Date.now() + 10_000;
    while (output.split(`Setup code: ${code}`).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const startLines = lines(atStart);
    const listening = startLines.findIndex((l) => l.includes('listening on http://127.0.0.1:'));
    expect(startLines.findIndex((l) => l === `Setup code: ${code}`)).toBeGreaterThan(listening);
    expect(startLines.at(-1)).toBe(`Setup code: ${code}`);
    const again = lines(output.slice(atStart.length));
    expect(again.at(-1)).toBe(`Setup code: ${code}`);
    expect(again.at(-2)).toContain(`Open http://127.0.0.1:${port}/setup and create the first Super Administrator`);
    const repeatedAt = output.lastIndexOf(`Setup code: ${code}`);
    expect(output.slice(atStart.length, repeatedAt)).toContain('/api/ready');
  });

  it('on SIGTERM stops accepting, finishes the request in flight, stops the database and exits 0', async () => {
    // A request in flight: its body arrives in two parts, the second after the SIGTERM.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const body = JSON.stringify({ email: 'nobody@example.edu', password: 'not the password' });
    const half = Math.floor(body.length / 2);
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
    );
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise((r) => socket.once('close', r));
    await new Promise((r) => setTimeout(r, 200));

    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // No new connections once draining has begun.
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    socket.write(body.slice(half));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);

    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output).toContain('stopped cleanly');
    // The embedded database stopped with it: no postgres left on the data directory.
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 60_000);
});
