import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isAppRoute } from '../../common/routes.ts';

/** index.html with the sign-in page drawn into it at build time. */
const SIGN_IN_PAGE = 'login.html';

/** The build's record of what each entry became (vite.config.ts writes it). */
const MANIFEST = path.join('.vite', 'manifest.json');

/**
 * The address of the script that enhances the server-rendered scan pages (web/scan/enhance.ts),
 * as the build named it. Null without a build: the pages work without it.
 */
export function builtScanScript(webRoot: string): string | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(webRoot, MANIFEST), 'utf8')) as Record<string, { file?: unknown }>;
    const file = manifest['scan/enhance.ts']?.file;
    return typeof file === 'string' ? `/${file}` : null;
  } catch {
    return null;
  }
}

/**
 * Serves the built web app (dist/web): the admin app, and the scan pages' script (the scan pages
 * themselves are rendered by server/modules/scan, so a student's phone never downloads admin code).
 * Unknown paths get the app's 'Page Not Found' screen with a real 404 status.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const indexFile = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No built web app at ${webRoot}; run npm run build`);
  }
  const hasSignInPage = fs.existsSync(path.join(webRoot, SIGN_IN_PAGE));
  await app.register(fastifyStatic, {
    root: webRoot,
    index: false,
    wildcard: false,
    // The build wrote brotli and gzip copies beside the text files (scripts/precompress.ts): the
    // one the client's Accept-Encoding prefers is sent, with `Vary: accept-encoding`, and the file
    // itself when there is none. The copies are not addresses of their own.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    // Set after @fastify/send's own `public, max-age=0`, which it would otherwise put on every file.
    setHeaders: (res, filePath) => {
      // Hashed names never change content; the rest (the HTML shell, the icon) is revalidated on every use.
      res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // req.url here is the canonical target (server/lib/request-target.ts); this handler reads no data.
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0]!;
    const isApi = pathname.toLowerCase() === '/api' || pathname.toLowerCase().startsWith('/api/');
    if (isApi || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.status(404).send({ message: 'Not Found', code: 'NOT_FOUND' });
    }
    // The sign-in page already drawn (scripts/prerender-sign-in.ts): usable before the app's script arrives.
    if (pathname === '/login' && hasSignInPage) return reply.sendFile(SIGN_IN_PAGE);
    return reply.status(isAppRoute(pathname) ? 200 : 404).sendFile('index.html');
  });
}
