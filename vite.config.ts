import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressDir } from './scripts/precompress.ts';

const webDir = fileURLToPath(new URL('./web/', import.meta.url));

/**
 * In production the server sends scan.html for /attendance/scan/{id} (server/plugins/web-app.ts).
 * The dev server would answer index.html there, so mirror that rewrite while developing.
 */
function scanPageInDev(): Plugin {
  return {
    name: 'muster-scan-page-dev',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url?.startsWith('/attendance/scan/')) req.url = '/scan.html';
        next();
      });
    },
  };
}

/** Brotli and gzip copies of the text files, written beside them after every build (scripts/precompress.ts). */
function precompress(): Plugin {
  return {
    name: 'muster-precompress',
    apply: 'build',
    async writeBundle(options) {
      if (!options.dir) return;
      const files = await precompressDir(options.dir);
      const sum = (key: 'raw' | 'br' | 'gz') => files.reduce((n, f) => n + (f[key] ?? f.raw), 0);
      const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      this.info(`precompressed ${files.length} files: ${kB(sum('raw'))}, brotli ${kB(sum('br'))}, gzip ${kB(sum('gz'))}`);
    },
  };
}

export default defineConfig({
  root: webDir,
  plugins: [react(), tailwindcss(), scanPageInDev(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web/', import.meta.url)),
    emptyOutDir: true,
    // Vite 8 bundles with Rolldown; `rollupOptions` is only a deprecated alias of this.
    rolldownOptions: {
      // Two entries: the public scan page must never pull in admin code.
      input: {
        main: `${webDir}index.html`,
        scan: `${webDir}scan.html`,
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
