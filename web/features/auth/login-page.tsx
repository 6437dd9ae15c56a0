import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { signInFormRefusalText, ssoRefusalText } from '../../../common/auth-texts.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { readErrorBody, type FieldErrors } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { AUTH_USER_KEY, useAuth } from '../../lib/use-auth.ts';
import { authContract, signIn, useSetupStatus, useSsoStatus } from './auth-api.ts';
import { focusFirstInvalid, usePreloadedSchema, validateFormLazily } from '../../lib/form-validation.ts';
import { restorePrerenderedFields } from '../../lib/prerendered-fields.ts';

// Loaded while the page shows: the page draws without zod (decision 025).
const loginSchema = authContract('loginSchema');

export function LoginPage() {
  useDocumentTitle('Sign In');
  const { user } = useAuth();
  const setup = useSetupStatus();
  const sso = useSsoStatus();
  const [params] = useSearchParams();
  // Looked up as own keys only: ?sso_error=__proto__ (or constructor, toString) names no refusal.
  const ssoRefusal = ssoRefusalText(params.get('sso_error'));
  // A sign-in sent as a plain form post, before this script arrived, comes back here with its refusal.
  const formRefusal = signInFormRefusalText(params.get('signin_error'));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  usePreloadedSchema(loginSchema);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  useEffect(() => restorePrerenderedFields(formRef.current), []);

  const login = useMutation({
    mutationFn: signIn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY });
      navigate('/', { replace: true });
    },
    onError: (error) => {
      setFieldErrors(readErrorBody(error).fieldErrors);
      focusFirstInvalid(formRef.current);
    },
  });

  if (user) return <Navigate to="/" replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { data, errors } = await validateFormLazily(loginSchema, { email: form.get('email'), password: form.get('password') });
    setFieldErrors(errors);
    if (!data) {
      focusFirstInvalid(formRef.current);
      return;
    }
    login.mutate(data);
  };

  const serverMessage = login.isError ? (readErrorBody(login.error).message ?? 'Sign-in failed. Please try again.') : null;

  return (
    <AuthLayout title="Sign in to Muster" subtitle="Use the e-mail address and password of your staff account.">
      {setup.data?.needsSetup ? (
        <Alert variant="info" className="mb-6">
          No accounts exist yet.{' '}
          <Link to="/setup" className="font-semibold underline underline-offset-2">
            Create the first Super Administrator
          </Link>
        </Alert>
      ) : null}
      {ssoRefusal ? <Alert className="mb-6">{ssoRefusal}</Alert> : null}
      {serverMessage ? <Alert className="mb-6">{serverMessage}</Alert> : formRefusal ? <Alert className="mb-6">{formRefusal}</Alert> : null}
      {sso.data?.enabled && sso.data.buttonLabel ? (
        <>
          <a href="/api/auth/sso/start" className={buttonClasses('primary', 'lg', 'w-full')}>
            {sso.data.buttonLabel}
          </a>
          <p className="my-6 text-center text-sm text-slate-600">
            {sso.data.localSignInDisabled ? 'Passwords below are for the Super Administrator only.' : 'or with your Muster password'}
          </p>
        </>
      ) : null}
      {/* method and action: sent before the app's script has arrived (login.html), the form still signs in. */}
      <form ref={formRef} method="post" action="/api/auth/login-form" noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Sign in">
        {/* The page exists to type into: the e-mail field has the focus at once (also in login.html). */}
        <TextField label="E-mail" name="email" type="email" autoComplete="username" required autoFocus error={fieldErrors.email} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required error={fieldErrors.password} />
        <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
          {login.isPending ? <Spinner className="size-4" /> : null}
          {login.isPending ? 'Signing in…' : 'Sign In'}
        </Button>
      </form>
      {/* No self-service reset: an administrator issues a set-password link (User Management). */}
      <p className="mt-6 text-center text-sm text-slate-600">Forgot password? Ask your administrator.</p>
    </AuthLayout>
  );
}
