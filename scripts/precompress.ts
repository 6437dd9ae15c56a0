import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Brotli and gzip copies of the built web app's text files, beside each file (`x.js.br`,
 * `x.js.gz`), made once at build time at the highest settings, so the server sends them without
 * compressing anything per request (server/plugins/web-app.ts, docs/decisions/027). Run by the
 * vite build (vite.config.ts), so every build path makes them.
 */

/** Text files; images, fonts and archives are already compressed. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|xml|map)$/i;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type PrecompressedFile = { file: string; raw: number; br: number | null; gz: number | null };

/** Compress every text file under `dir`; a copy is written only when it is smaller than the file. */
export async function precompressDir(dir: string): Promise<PrecompressedFile[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  // index.html last: scripts/ensure-build.mjs takes its .br as the sign of a finished build.
  const last = path.join(dir, 'index.html');
  const results = await Promise.all(files.filter((f) => f !== last).map(precompressFile));
  if (files.includes(last)) results.push(await precompressFile(last));
  return results.map((r) => ({ ...r, file: path.relative(dir, r.file) }));
}

async function precompressFile(file: string): Promise<PrecompressedFile> {
  const raw = await fs.readFile(file);
  const stat = await fs.stat(file);
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return {
    file,
    raw: raw.length,
    br: await writeIfSmaller(`${file}.br`, br, raw.length, stat.mtime),
    gz: await writeIfSmaller(`${file}.gz`, gz, raw.length, stat.mtime),
  };
}

async function writeIfSmaller(target: string, data: Buffer, rawSize: number, mtime: Date): Promise<number | null> {
  if (data.length >= rawSize) {
    await fs.rm(target, { force: true });
    return null;
  }
  await fs.writeFile(target, data);
  // Same Last-Modified whichever encoding is sent.
  await fs.utimes(target, mtime, mtime);
  return data.length;
}
