import { z } from 'zod';
import { passwordSchema } from '../../common/auth.ts';
import { ROLES } from '../../common/roles.ts';
import { badRequest } from '../lib/errors.ts';
import { assertPasswordAllowed } from '../lib/password-rules.ts';
import { recordAudit } from '../modules/audit-logs/service.ts';
import { insertUser } from '../modules/auth/service.ts';
import { readFlags } from './args.ts';
import { runCli } from './run-cli.ts';

// npm run user:create -- --email E --password P --role R --first-name F --last-name L [--username U]
const flags = readFlags(['email', 'password', 'role', 'first-name', 'last-name', 'username'], ['email', 'password', 'role', 'first-name', 'last-name']);

const schema = z.object({
  email: z.email('Enter a valid e-mail address'),
  password: passwordSchema,
  role: z.enum(ROLES, `role must be one of ${ROLES.join(', ')}`),
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  username: z.string().trim().min(1).max(100).optional(),
});

await runCli(async (db) => {
  const parsed = schema.safeParse({
    email: flags.email,
    password: flags.password,
    role: flags.role,
    firstName: flags['first-name'],
    lastName: flags['last-name'],
    username: flags.username,
  });
  if (!parsed.success) throw badRequest('Invalid user', parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })));
  const u = parsed.data;
  await assertPasswordAllowed(u.password, u);
  const id = await db.transaction(async (tx) => {
    const userId = await insertUser(tx, u);
    await recordAudit(tx, {
      userId: null,
      action: 'Create',
      tableName: 'users',
      recordId: userId,
      newValues: { email: u.email, firstName: u.firstName, lastName: u.lastName, role: u.role, via: 'cli' },
      always: true,
    });
    return userId;
  });
  console.log(`Created ${u.role} ${u.email} (id ${id}).`);
});
