// `npm run bench` runs every benchmark; `npm run bench -- import-students` runs the named ones.
export type Bench = { run: () => Promise<void> };

const BENCHES: Record<string, () => Promise<Bench>> = {
  'import-students': () => import('./import-students.ts'),
  dashboard: () => import('./dashboard.ts'),
  checkin: () => import('./checkin.ts'),
  'students-list': () => import('./students-list.ts'),
  hours: () => import('./hours.ts'),
  compliance: () => import('./compliance.ts'),
  'web-first-load': () => import('./web-first-load.ts'),
  'scan-phone': () => import('./scan-phone.ts'),
};

// Names only: options (`--records 10000000`) and their values are for the benchmarks to read.
const args = process.argv.slice(2);
const asked = args.filter((a, i) => !a.startsWith('-') && !(args[i - 1]?.startsWith('--') && !args[i - 1]!.includes('=') && /^[\d.]+$/.test(a)));
const unknown = asked.filter((n) => !(n in BENCHES));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}. Available: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const name of asked.length > 0 ? asked : Object.keys(BENCHES)) {
  console.log(`\n== ${name} ==`);
  const bench = await BENCHES[name]!();
  await bench.run();
}
