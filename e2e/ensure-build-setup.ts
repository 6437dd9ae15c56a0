import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Vitest global setup: rebuild dist/web when web/ or common/ changed since the last build. */
export default function ensureBuild(): void {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'ensure-build.mjs'), 'web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web app failed to build; see the output above.');
}
