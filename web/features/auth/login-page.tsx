import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { loginSchema } from '../../../common/auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { readErrorBody, type FieldErrors } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { AUTH_USER_KEY, useAuth } from '../../lib/use-auth.ts';
import { signIn, useSetupStatus } from './auth-api.ts';
import { focusFirstInvalid, validateForm } from '../../lib/form-validation.ts';

export function LoginPage() {
  useDocumentTitle('Sign In');
  const { user } = useAuth();
  const setup = useSetupStatus();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { data, errors } = validateForm(loginSchema, { email: form.get('email'), password: form.get('password') });
    setFieldErrors(errors);
    if (!data) {
      focusFirstInvalid(formRef.current);
      return;
    }
    login.mutate(data);
  };

  const serverMessage = login.isError
    ? (readErrorBody(login.error).message ?? 'Sign-in failed. Please try again.')
    : null;

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
      {serverMessage ? <Alert className="mb-6">{serverMessage}</Alert> : null}
      <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Sign in">
        <TextField label="E-mail" name="email" type="email" autoComplete="username" required error={fieldErrors.email} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required error={fieldErrors.password} />
        <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
          {login.isPending ? <Spinner className="size-4" /> : null}
          {login.isPending ? 'Signing in…' : 'Sign In'}
        </Button>
      </form>
    </AuthLayout>
  );
}
