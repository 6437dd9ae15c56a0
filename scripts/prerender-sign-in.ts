import fs from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer } from 'vite';

/**
 * login.html: the built index.html with the sign-in page already drawn inside #root, rendered from
 * the app's own LoginPage (web/features/auth/login-prerender.tsx), so its markup and classes are
 * the ones the app draws. The server sends it for /login (server/plugins/web-app.ts). Run by the
 * vite build after the bundle is written (vite.config.ts), before the files are precompressed.
 */
export async function prerenderSignIn(outDir: string, webDir: string): Promise<void> {
  const vite = await createServer({
    root: webDir,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
    plugins: [react()],
  });
  try {
    const { renderSignInPage } = (await vite.ssrLoadModule('/features/auth/login-prerender.tsx')) as { renderSignInPage: () => string };
    const index = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');
    const root = '<div id="root"></div>';
    if (!index.includes(root)) throw new Error('index.html has no empty #root to draw the sign-in page into');
    await fs.writeFile(path.join(outDir, 'login.html'), index.replace(root, `<div id="root">${renderSignInPage()}</div>`));
  } finally {
    await vite.close();
  }
}
