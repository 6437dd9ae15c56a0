import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressDir } from './scripts/precompress.ts';
import { prerenderSignIn } from './scripts/prerender-sign-in.ts';

const webDir = fileURLToPath(new URL('./web/', import.meta.url));

/**
 * After every build: login.html, the sign-in page drawn in advance (scripts/prerender-sign-in.ts),
 * then brotli and gzip copies of the text files beside them (scripts/precompress.ts).
 */
function precompress(): Plugin {
  return {
    name: 'muster-precompress',
    apply: 'build',
    async writeBundle(options) {
      if (!options.dir) return;
      await prerenderSignIn(options.dir, webDir);
      const files = await precompressDir(options.dir);
      const sum = (key: 'raw' | 'br' | 'gz') => files.reduce((n, f) => n + (f[key] ?? f.raw), 0);
      const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      this.info(`precompressed ${files.length} files: ${kB(sum('raw'))}, brotli ${kB(sum('br'))}, gzip ${kB(sum('gz'))}`);
    },
  };
}

export default defineConfig({
  root: webDir,
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web/', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    // Vite 8 bundles with Rolldown; `rollupOptions` is only a deprecated alias of this.
    rolldownOptions: {
      // Two entries: the admin app, and the script of the scan pages the server renders, which
      // must never pull in admin code (server/modules/scan, docs/decisions/028). The script is an
      // entry of its own, not an HTML page's: an HTML entry gets Vite's modulepreload polyfill, a
      // chunk the phone would fetch for nothing. The server finds its hashed name in the manifest.
      input: {
        main: `${webDir}index.html`,
        scan: `${webDir}scan/enhance.ts`,
      },
    },
  },
  server: {
    // The scan pages are the server's (server/modules/scan); the dev server passes them on.
    proxy: { '/api': 'http://localhost:3000', '/attendance/scan': 'http://localhost:3000' },
  },
});
