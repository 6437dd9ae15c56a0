import { z } from 'zod';
import { ROLES } from './roles.ts';

export const currentUserSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'E-mail is required').max(320),
  password: z.string().min(1, 'Password is required').max(1024),
});

export const PASSWORD_RULE = 'Password must be at least 8 characters';
export const passwordSchema = z.string().min(8, PASSWORD_RULE).max(1024, 'Password is too long');

export const setupSchema = z.object({
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().min(1, 'Last name is required').max(100),
  email: z.email('Enter a valid e-mail address').max(320),
  password: passwordSchema,
});

export const setupStatusSchema = z.object({ needsSetup: z.boolean() });

export const INVALID_CREDENTIALS = 'Invalid e-mail or password';
export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Please wait 15 minutes and try again.';
