import { sql } from 'drizzle-orm';
import { users } from './schema/index.ts';

/** A user's full name in a select ('First Last'; null when both parts are blank), as schedules, QR sessions and the audit log show it. */
export const userFullName = sql<string | null>`nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), '')`;
