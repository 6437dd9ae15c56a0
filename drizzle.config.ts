import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` is used: it diffs the schema against the committed snapshots,
// so no database connection is needed. Migrations are applied by server/db/migrate.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});
