import { z } from 'zod';
import { passwordSchema } from '../../common/auth.ts';
import { ROLES } from '../../common/roles.ts';
import { badRequest } from '../lib/errors.ts';
import { createUserFromCommandLine } from '../modules/auth/service.ts';
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
  if (!parsed.success)
    throw badRequest(
      'Invalid user',
      parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
    );
  const u = parsed.data;
  const id = await createUserFromCommandLine(db, u);
  console.log(`Created ${u.role} ${u.email} (id ${id}).`);
});
