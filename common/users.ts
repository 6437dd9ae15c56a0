import { z } from 'zod';
import { passwordSchema } from './auth.ts';
import { ROLES } from './roles.ts';
import { emailAddress, requiredText, tokenText } from './validation.ts';

export const userSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  role: z.enum(ROLES),
  isActive: z.boolean(),
  lastLogin: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

export const userInputSchema = z.object({
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  email: emailAddress(),
  username: requiredText('Username', 100),
  role: z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}` }),
});
export type UserInput = z.infer<typeof userInputSchema>;

export const userCreatedSchema = z.object({
  user: userSchema,
  /** One-time link the admin copies to the new user; valid 7 days. */
  setPasswordUrl: z.string(),
  setPasswordExpiresAt: z.string(),
});

export const setPasswordSchema = z.object({
  token: tokenText('token', { min: 20, max: 200 }),
  password: passwordSchema,
});

export const LAST_SUPER_ADMIN = 'The last active Super Administrator cannot be deactivated or given another role.';
export const OWN_ROLE = 'You cannot change your own role.';
export const IT_ADMIN_SUPER = 'IT Administrators cannot create, edit or promote Super Administrators.';
export const SELF_DEACTIVATE = 'You cannot deactivate your own account.';
