import { isValidTimeZone, systemSettingsSchema } from './settings.ts';
import { z } from 'zod';
import { ROLES } from './roles.ts';

// The sign-in page's texts live in auth-texts.ts (no zod), so that page draws before zod arrives.
export * from './auth-texts.ts';

export const currentUserSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  /** A sign-in that still owes a step (decision 018): the web app shows that step before anything else. */
  pendingStep: z.enum(['password_change', 'totp_enrol', 'totp']).nullable().optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'E-mail is required').max(320),
  password: z.string().min(1, 'Password is required').max(1024),
});

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 1024;
export const PASSWORD_RULE = 'Password must be at least 8 characters';
const PASSWORD_TOO_LONG = 'Password is too long';
export const PASSWORD_BLANK = 'Password cannot be only spaces';
export const PASSWORD_PERSONAL = 'Password must not contain your name or e-mail address';
export const PASSWORD_COMMON = 'This password is too common. Choose one that is harder to guess.';

/**
 * The rules a browser can check on its own. The server checks these again with the rest (the
 * user's name and e-mail, the common-password list) in server/lib/password-rules.ts.
 */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, PASSWORD_RULE)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)
  .refine((p) => p.trim() !== '', PASSWORD_BLANK);

const SETUP_CODE_REQUIRED = 'Setup code is required';
export const SETUP_CODE_WRONG =
  'That setup code is not right. Use the code printed in the server’s console when it first started (a line reading “Setup code: …”).';
export const SETUP_CODE_HELP = 'Printed in the server’s console when it first started, on a line reading “Setup code: …”.';

export const setupSchema = z.object({
  setupCode: z.string({ error: SETUP_CODE_REQUIRED }).trim().min(1, SETUP_CODE_REQUIRED).max(100, 'Setup code is too long'),
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().min(1, 'Last name is required').max(100),
  email: z.email('Enter a valid e-mail address').max(320),
  password: passwordSchema,
  /** The school's time zone (IANA); the setup page prefills the browser's. Default: the server's. */
  timeZone: z.string().trim().max(64).refine(isValidTimeZone, 'Time zone must be an IANA zone such as America/Chicago').optional(),
  /** Printed on time cards, reports and e-mails to students (Settings › System). Optional here (scripts); the setup page asks for it. */
  schoolName: systemSettingsSchema.shape.schoolName.optional(),
});

const SCHOOL_NAME_REQUIRED = 'School name is required';
/** The setup page's form: the school's name is asked for there, so that no document goes out unnamed. */
export const setupFormSchema = setupSchema.extend({ schoolName: systemSettingsSchema.shape.schoolName.min(1, SCHOOL_NAME_REQUIRED) });

export const setupStatusSchema = z.object({ needsSetup: z.boolean() });

/** A throttled sign-in or setup attempt; the wait is also sent in the Retry-After header. */
export function tooManyAttempts(retryAfterSeconds: number, what: 'sign-in' | 'setup' = 'sign-in'): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many ${what} attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

/** One of the signed-in user's own sessions (GET /api/auth/sessions). */
export const loginSessionSchema = z.object({
  /** An opaque reference for ending it; never the session's key or cookie. */
  id: z.string(),
  current: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** When it ends however active it is (the sessionLifetimeHours setting). */
  expiresAt: z.string(),
  ipAddress: z.string().nullable(),
  browser: z.string(),
});
export type LoginSessionInfo = z.infer<typeof loginSessionSchema>;

export const SESSION_REF_LENGTH = 32;
export const sessionRefParam = z.object({
  id: z.string().regex(new RegExp(`^[0-9a-f]{${SESSION_REF_LENGTH}}$`), 'Unknown session'),
});

export const endedSessionsSchema = z.object({ ended: z.number().int() });

/** What a sign-in still owes before it reaches anything else (decision 018). */
export const LOGIN_PENDING_STEPS = ['password_change', 'totp_enrol', 'totp'] as const;
export type LoginPendingStep = (typeof LOGIN_PENDING_STEPS)[number];

/** The refusal of every other route while a sign-in owes a step; `step` says which. */
export const SIGN_IN_STEP_REQUIRED = 'SIGN_IN_STEP_REQUIRED';

export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(PASSWORD_MAX_LENGTH),
  newPassword: passwordSchema,
});
export const PASSWORD_SAME = 'Choose a password different from the current one';
export const CURRENT_PASSWORD_WRONG = 'The current password is not right';

/** What the authenticator app needs: the QR code, and the secret to type when a camera is not at hand. */
export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrCodeDataUrl: z.string(),
});
export const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, 'Enter the code')
    .max(20, 'Enter the six-digit code or a recovery code')
    .transform((c) => c.replace(/\s+/g, '')),
});
export const RECOVERY_CODE_COUNT = 10;
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) });
export const stepDoneSchema = z.object({ pendingStep: z.enum(['password_change', 'totp_enrol', 'totp']).nullable() });
export const TOTP_CODE_WRONG = 'That code is not right. Enter the six-digit code your authenticator app shows now.';
export const TOTP_CODE_USED = 'That code was just used. Wait for the next one.';
export const TOTP_ALREADY_ENROLLED = 'Two-factor authentication is already set up for this account.';

/** GET /api/auth/sso: what the sign-in page offers. */
export const ssoStatusSchema = z.object({
  enabled: z.boolean(),
  /** "Sign in with {school}". */
  buttonLabel: z.string().nullable(),
  /** Local passwords are for the Super Administrator only. */
  localSignInDisabled: z.boolean(),
});
export type SsoStatus = z.infer<typeof ssoStatusSchema>;

export const LOCAL_SIGN_IN_OFF = 'LOCAL_SIGN_IN_OFF';
