import { PASSWORD_COMMON, PASSWORD_PERSONAL, passwordSchema } from '../../common/auth.ts';
import { badRequest } from './errors.ts';

/** Whose password it is: a password may not be, or contain, their e-mail or name. */
type PasswordOwner = { email: string; firstName?: string | null; lastName?: string | null };

// Shorter parts (a two-letter local part such as "jo@…") would refuse many good passphrases.
const MIN_PERSONAL_PART = 3;

let commonPasswords: Promise<Set<string>> | undefined;

/**
 * The common-password list of zxcvbn-ts (about 49,000 entries, lower case), loaded on first use
 * (~90 ms) so processes that never set a password do not pay for it.
 */
function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common']));
  return commonPasswords;
}

function personalParts(owner: PasswordOwner): string[] {
  const email = owner.email.trim().toLowerCase();
  const local = email.split('@')[0] ?? '';
  return [email, local, owner.firstName ?? '', owner.lastName ?? ''].map((s) => s.trim().toLowerCase()).filter((s) => s.length >= MIN_PERSONAL_PART);
}

/**
 * The reason this password may not be used, or null when it may. The one password rule: first-run
 * setup, set-password links and the CLI all call it (through assertPasswordAllowed).
 */
export async function passwordProblem(password: string, owner: PasswordOwner): Promise<string | null> {
  // Length and blankness: the contract's schema, the same check the browser makes.
  const basic = passwordSchema.safeParse(password);
  if (!basic.success) return basic.error.issues[0]!.message;
  const lower = password.toLowerCase();
  if (personalParts(owner).some((part) => lower.includes(part))) return PASSWORD_PERSONAL;
  const common = await loadCommonPasswords();
  if (common.has(lower) || common.has(lower.trim()) || common.has(lower.replace(/\s+/g, ''))) return PASSWORD_COMMON;
  return null;
}

/** Throws a 400 naming the field `password` when the password breaks the rule. */
export async function assertPasswordAllowed(password: string, owner: PasswordOwner): Promise<void> {
  const problem = await passwordProblem(password, owner);
  if (problem) throw badRequest(`Validation failed: password: ${problem}`, [{ field: 'password', message: problem }]);
}
