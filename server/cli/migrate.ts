import { runCli } from './run-cli.ts';

// openDatabase applies pending migrations; this command exists for scripted installs.
await runCli(async () => {
  console.log('Migrations applied.');
});
