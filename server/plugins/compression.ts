import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** Below this an answer is sent as it is: it fits a packet or two either way. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses what the routes answer (JSON, HTML pages, CSV exports as they stream), brotli or
 * gzip as the client's Accept-Encoding prefers, with `Vary: accept-encoding`. Types that are
 * compressed already (PDF, images, fonts, spreadsheets, archives) go out as they are.
 * The built web app's files are not compressed here: the build made their brotli and gzip
 * copies at the highest settings (scripts/precompress.ts) and @fastify/static sends those
 * (plugins/web-app.ts). Register before the routes: it attaches to each route as it is added.
 * docs/decisions/027-precompressed-assets.md
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // @fastify/static's file routes (the file is in their config, as plugins/authorization.ts reads it).
  app.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config as { file?: unknown } | undefined;
    if (typeof config?.file === 'string') route.compress = false;
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    // Brotli at the library's quality 4: as fast as gzip and smaller; 11 takes over 100× the CPU (027).
    // Request bodies are taken as sent: browsers never compress them, so inflating them would be
    // work only a hostile client asks for.
    globalDecompression: false,
  });
}
