import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  root: webDir,
  plugins: [react(), tailwindcss(), scanPageInDev()],
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
