// Benchmark: what the admin web app sends before its first screens draw, gzip-compressed, against
// the issue-15 budget (150 KB). Builds the web app with a manifest into a scratch directory and
// walks the module graph: the entry and its static imports (the shell and sign-in), then each
// screen's own chunk and what it adds.
// Run: npm run bench -- web-first-load
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };

const BUDGET_KB = 150;
const SCREENS = [
  'features/dashboard/dashboard-page.tsx',
  'features/students/students-page.tsx',
  'features/attendance/take-attendance-page.tsx',
  'features/settings/settings-page.tsx',
];

export async function run(): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-web-bench-'));
  try {
    execFileSync('npx', ['vite', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const gz = new Map<string, number>();
    const size = (file: string) => gz.get(file) ?? gz.set(file, gzipSync(fs.readFileSync(path.join(outDir, file)), { level: 9 }).length).get(file)!;
    /** Files a chunk needs before it runs: itself, its CSS, and its static imports, transitively. */
    const closure = (key: string, into = new Set<string>()): Set<string> => {
      const chunk = manifest[key]!;
      if (into.has(chunk.file)) return into;
      into.add(chunk.file);
      for (const css of chunk.css ?? []) into.add(css);
      for (const dep of chunk.imports ?? []) closure(dep, into);
      return into;
    };
    const kb = (files: Iterable<string>) => [...files].reduce((n, f) => n + size(f), 0) / 1024;
    const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('index.html'))!;
    const shell = closure(entryKey);
    const report = (label: string, files: Set<string>) => {
      const total = kb(files);
      console.log(
        `${label.padEnd(34)} ${total.toFixed(1).padStart(7)} KB gzip  = ${(total / BUDGET_KB).toFixed(2)}× the ${BUDGET_KB} KB budget  ${total <= BUDGET_KB ? 'PASS' : 'FAIL'}`,
      );
    };
    report('sign-in (shell, before any screen)', shell);
    for (const screen of SCREENS) {
      const key = Object.keys(manifest).find((k) => k.endsWith(screen));
      if (!key) {
        console.log(`${screen}: not a chunk of its own (FAIL: every screen should be one)`);
        continue;
      }
      report(`+ ${path.basename(screen, '.tsx')}`, closure(key, new Set(shell)));
    }
    const chunks = Object.values(manifest).filter((c) => c.isDynamicEntry).length;
    console.log(
      `chunks loaded on navigation: ${chunks}; largest files: ${[...new Set(Object.values(manifest).map((c) => c.file))]
        .sort((a, b) => size(b) - size(a))
        .slice(0, 4)
        .map((f) => `${path.basename(f)} ${(size(f) / 1024).toFixed(1)} KB`)
        .join(', ')}`,
    );
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
