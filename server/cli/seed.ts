import { ROLE_LABELS } from '../../common/roles.ts';
import { loadConfig } from '../config.ts';
import { seedDemoSchool } from '../seed/demo-school.ts';
import { runCli } from './run-cli.ts';

// npm run db:seed: fill an empty database with the demo school and print the sign-in accounts.
await runCli(async (db) => {
  const started = performance.now();
  const { accounts, counts } = await seedDemoSchool(db, { today: new Date() });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  const rows = [['Role', 'E-mail', 'Password'], ...accounts.map((a) => [ROLE_LABELS[a.role], a.email, a.password])];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();

  console.log(`Demo school created in ${seconds} s.\n`);
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(line(r));
  console.log('\nThese passwords are shown only once; store them now.\n');
  const keyWidth = Math.max(...Object.keys(counts).map((k) => k.length));
  for (const [k, v] of Object.entries(counts)) console.log(`  ${k.padEnd(keyWidth)}  ${v}`);
  // The address npm start will serve: PUBLIC_URL when set, else this machine on PORT.
  const { publicUrl, port } = loadConfig();
  console.log(`\nRun \`npm start\` and sign in at ${publicUrl ?? `http://localhost:${port}`}/api/login`);
});
