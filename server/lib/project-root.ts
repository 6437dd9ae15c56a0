import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root (where package.json is), found from this module's own location, so the same
 * code finds dist/web and the SQL migrations whether it runs from server/*.ts in development or
 * from the compiled dist/server/*.js that `npm start` runs.
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'server'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Muster checkout (package.json) above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot();
