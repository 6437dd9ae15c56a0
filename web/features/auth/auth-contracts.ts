import { z } from 'zod';
import { loginSessionSchema } from '../../../common/auth.ts';

// The auth feature's schemas, loaded on demand (auth-api.ts, the sign-in forms): the sign-in page
// draws without zod, which arrives while the user types (decision 025).
export {
  currentUserSchema,
  endedSessionsSchema,
  loginSchema,
  passwordChangeSchema,
  recoveryCodesSchema,
  setupStatusSchema,
  ssoStatusSchema,
  stepDoneSchema,
  totpCodeSchema,
  totpEnrolmentSchema,
} from '../../../common/auth.ts';
export { okSchema } from '../../../common/validation.ts';
export const loginSessionsSchema = z.array(loginSessionSchema);
