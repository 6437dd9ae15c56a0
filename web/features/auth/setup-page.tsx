import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { PASSWORD_HINT, SETUP_CODE_HELP, setupFormSchema } from '../../../common/auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { LoadingScreen, Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ApiError, readErrorBody, type FieldErrors } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { AuthLayout, AuthNotice } from '../../components/auth-layout.tsx';
import { TimeZoneField } from '../../components/time-zone-field.tsx';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';
import { SETUP_STATUS_KEY, setUpSchool, useSetupStatus } from './auth-api.ts';
import { focusFirstInvalid, validateForm } from '../../lib/form-validation.ts';

// The browser's zone is the likeliest school zone; the picker offers every IANA zone, US zones first.
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * First run (PRODUCT.md): while no user exists, create the first Super Administrator. The one-time
 * setup code from the server's console proves the person can run the server.
 */
export function SetupPage() {
  useDocumentTitle('Set Up');
  const status = useSetupStatus();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [timeZone, setTimeZone] = useState(browserZone);

  const setup = useMutation({
    mutationFn: setUpSchool,
    onSuccess: (user) => {
      // The answer is the signed-in user: no second round trip before entering the app.
      queryClient.setQueryData(AUTH_USER_KEY, user);
      queryClient.setQueryData(SETUP_STATUS_KEY, { needsSetup: false });
      navigate('/', { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: SETUP_STATUS_KEY });
        return;
      }
      setFieldErrors(readErrorBody(error).fieldErrors);
      focusFirstInvalid(formRef.current);
    },
  });

  if (status.isLoading) return <LoadingScreen />;

  if (status.data && !status.data.needsSetup) {
    return (
      <AuthNotice
        title="Setup is complete"
        subtitle="This school already has a Super Administrator."
        notice="Accounts for other staff are created by an administrator. Sign in with your own account."
        linkLabel="Go to sign in"
      />
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries(['setupCode', 'firstName', 'lastName', 'email', 'password', 'schoolName', 'timeZone'].map((k) => [k, form.get(k) ?? '']));
    const { data, errors } = validateForm(setupFormSchema, values);
    setFieldErrors(errors);
    if (!data) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setup.mutate(data);
  };

  const error = setup.isError ? readErrorBody(setup.error) : null;
  const showGeneral = error && Object.keys(error.fieldErrors).length === 0;

  return (
    <AuthLayout title="Create the first Super Administrator" subtitle="This account can set up the school, import data and add other staff.">
      {status.isError ? <Alert className="mb-6">Could not check whether setup is needed. You can still try below.</Alert> : null}
      {showGeneral ? <Alert className="mb-6">{error.message ?? 'Setup failed. Please try again.'}</Alert> : null}
      <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Create the first Super Administrator">
        <TextField
          label="Setup code"
          name="setupCode"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          hint={SETUP_CODE_HELP}
          error={fieldErrors.setupCode}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="First name" name="firstName" autoComplete="given-name" required error={fieldErrors.firstName} />
          <TextField label="Last name" name="lastName" autoComplete="family-name" required error={fieldErrors.lastName} />
        </div>
        <TextField label="E-mail" name="email" type="email" autoComplete="email" required error={fieldErrors.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint={PASSWORD_HINT}
          error={fieldErrors.password}
        />
        <TextField
          label="School name"
          name="schoolName"
          autoComplete="organization"
          required
          maxLength={200}
          hint="Printed on time cards, the monthly hours report and e-mails to students. You can change it later in Settings › System."
          error={fieldErrors.schoolName}
        />
        <TimeZoneField
          label="School time zone"
          value={timeZone}
          onChange={setTimeZone}
          hint="Class dates and late marks use this zone; you can change it later in Settings."
          error={fieldErrors.timeZone}
        />
        <Button type="submit" size="lg" className="w-full" disabled={setup.isPending}>
          {setup.isPending ? <Spinner className="size-4" /> : <CircleCheck aria-hidden="true" className="size-4" />}
          {setup.isPending ? 'Creating account…' : 'Create account'}
        </Button>
      </form>
    </AuthLayout>
  );
}
