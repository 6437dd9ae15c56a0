import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Zod's JIT probe (`new Function("")`) is a Content-Security-Policy violation on every
 * admin page. With the entry's first import, no schema ever asks for `new Function`.
 */
describe('zod in the browser bundles', () => {
  it('never constructs a Function once the entries configure it, and still validates', async () => {
    const constructed: string[] = [];
    const Original = globalThis.Function;
    globalThis.Function = new Proxy(Original, {
      construct(target, args: string[]) {
        constructed.push(args.join(','));
        return Reflect.construct(target, args);
      },
    });
    try {
      await import('./zod-jitless.ts');
      const { z } = await import('zod');
      expect(z.config().jitless).toBe(true);
      // What the app's schemas do: objects parsed many times (the JIT would compile them).
      const schema = z.object({ email: z.email(), n: z.number().int(), tags: z.array(z.string()) });
      for (let i = 0; i < 50; i++) expect(schema.parse({ email: 'a@b.edu', n: i, tags: ['x'] })).toEqual({ email: 'a@b.edu', n: i, tags: ['x'] });
      expect(schema.safeParse({ email: 'nope', n: 1.5, tags: [1] }).success).toBe(false);
      expect(constructed).toEqual([]);
    } finally {
      globalThis.Function = Original;
    }
  });

  it('is the first import of the admin entry, so it runs before any schema is built; the scan script has no zod at all', () => {
    const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const firstImport = fs.readFileSync(path.join(web, 'app/main.tsx'), 'utf8').match(/^import .*$/m)?.[0];
    expect(firstImport).toBe("import '../lib/zod-jitless.ts';");
    // The scan pages' script (decision 028) imports nothing, so it builds no schema.
    expect(fs.readFileSync(path.join(web, 'scan/enhance.ts'), 'utf8')).not.toMatch(/^import /m);
  });
});
