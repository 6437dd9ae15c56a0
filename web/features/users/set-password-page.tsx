import { KeyRound, LogIn } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { PASSWORD_RULE } from '../../../common/auth.ts';
import { setPasswordSchema } from '../../../common/users.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { readErrorBody, type FieldErrors } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { AuthLayout, AuthNotice } from '../../components/auth-layout.tsx';
import { focusFirstInvalid, validateForm } from '../../lib/form-validation.ts';
import { useSetPassword } from './users-api.ts';

const PASSWORDS_DIFFER = 'The passwords do not match';

/** /set-password?token=… — the page a new (or locked-out) user reaches from the link an admin gave them. */
export function SetPasswordPage() {
  useDocumentTitle('Set Your Password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const setPassword = useSetPassword();

  if (setPassword.isSuccess) {
    return (
      <AuthNotice
        title="Your password is set"
        subtitle="You can now sign in with your e-mail address and the new password."
        notice="The link has been used and no longer works."
        linkLabel={
          <>
            <LogIn aria-hidden="true" className="size-4" />
            Sign in
          </>
        }
      />
    );
  }

  if (!token) {
    return (
      <AuthNotice
        title="Set your password"
        subtitle="This page needs the link an administrator gave you."
        notice="This link is incomplete. Open the full link you were given, or ask an administrator for a new one."
        noticeVariant="error"
        linkVariant="secondary"
        linkLabel="Go to sign in"
      />
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const { data, errors: found } = validateForm(setPasswordSchema, { token, password });
    if (!found.password && password !== String(form.get('confirmPassword') ?? '')) found.confirmPassword = PASSWORDS_DIFFER;
    setErrors(found);
    if (!data || found.confirmPassword) return focusFirstInvalid(formRef.current);
    setPassword.mutate(data, {
      onError: (e) => {
        setErrors(readErrorBody(e).fieldErrors);
        focusFirstInvalid(formRef.current);
      },
    });
  };

  const failure = setPassword.isError ? readErrorBody(setPassword.error) : null;
  const tokenProblem = errors.token ? 'This link is invalid or has expired. Ask an administrator for a new one.' : null;
  const message =
    tokenProblem ?? (failure && Object.keys(failure.fieldErrors).length === 0 ? (failure.message ?? 'Could not set the password. Please try again.') : null);

  return (
    <AuthLayout title="Set your password" subtitle="Choose the password you will use to sign in to Muster.">
      {message ? <Alert className="mb-6">{message}</Alert> : null}
      <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Set your password">
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint={errors.password ? undefined : `${PASSWORD_RULE}.`}
          error={errors.password}
        />
        <TextField label="Confirm password" name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} />
        <Button type="submit" size="lg" className="w-full" disabled={setPassword.isPending}>
          {setPassword.isPending ? <Spinner className="size-4" /> : <KeyRound aria-hidden="true" className="size-4" />}
          {setPassword.isPending ? 'Saving…' : 'Set password'}
        </Button>
      </form>
    </AuthLayout>
  );
}
