import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LoginPendingStep } from '../../../common/auth.ts';
import { PASSWORD_HINT } from '../../../common/auth-texts.ts';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { apiParse, readErrorBody, type FieldErrors } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { downloadText } from '../../lib/download.ts';
import { focusFirstInvalid, usePreloadedSchema, validateFormLazily, type SchemaLoader } from '../../lib/form-validation.ts';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';
import { authContract, signOutHere } from './auth-api.ts';

/**
 * What a sign-in still owes before the app opens (decision 018): a new password, setting up two-factor
 * authentication, or a code. The server refuses everything else until the step is done.
 */
export function SignInStepScreen({ step, email }: { step: LoginPendingStep; email: string }) {
  if (step === 'password_change') return <ChoosePassword />;
  if (step === 'totp_enrol') return <EnrolAuthenticator email={email} />;
  return <EnterCode />;
}

function useStepDone() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY });
}

function SignOutLink() {
  const queryClient = useQueryClient();
  return (
    <button
      type="button"
      className="mt-6 text-sm font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900"
      onClick={() => void signOutHere().finally(() => queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY }))}
    >
      Sign out and use another account
    </button>
  );
}

// The steps' schemas, loaded when a step first shows (decision 025).
const passwordChangeSchema = authContract('passwordChangeSchema');
const totpCodeSchema = authContract('totpCodeSchema');
const stepDoneSchema = authContract('stepDoneSchema');
const totpEnrolmentSchema = authContract('totpEnrolmentSchema');
const recoveryCodesSchema = authContract('recoveryCodesSchema');

/** A step's form: checked by the shared schema in the browser, sent, field errors shown where they belong. */
function useStepForm<T>(schema: SchemaLoader<T>, read: (form: FormData) => unknown, submit: (data: T) => Promise<unknown>, onDone: (result: unknown) => void) {
  usePreloadedSchema(schema);
  const formRef = useRef<HTMLFormElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: submit,
    onSuccess: onDone,
    onError: (error) => {
      setFieldErrors(readErrorBody(error).fieldErrors);
      focusFirstInvalid(formRef.current);
    },
  });
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read before the wait: React clears currentTarget once the handler yields.
    const { data, errors } = await validateFormLazily(schema, read(new FormData(event.currentTarget)));
    setFieldErrors(errors);
    if (!data) return focusFirstInvalid(formRef.current);
    mutation.mutate(data);
  };
  const serverMessage =
    mutation.isError && Object.keys(readErrorBody(mutation.error).fieldErrors).length === 0
      ? (readErrorBody(mutation.error).message ?? 'Something went wrong. Please try again.')
      : null;
  return { formRef, fieldErrors, mutation, serverMessage, onSubmit };
}

const readCode = (form: FormData) => ({ code: form.get('code') });

function ChoosePassword() {
  useDocumentTitle('Choose a New Password');
  const done = useStepDone();
  const { formRef, fieldErrors, mutation, serverMessage, onSubmit } = useStepForm(
    passwordChangeSchema,
    (form) => ({ currentPassword: form.get('currentPassword'), newPassword: form.get('newPassword') }),
    (data) => apiParse(stepDoneSchema, 'POST', '/api/auth/password', data),
    () => void done(),
  );
  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Your school asks for a new password before you continue: this one was set by an administrator or is too old."
    >
      {serverMessage ? <Alert className="mb-6">{serverMessage}</Alert> : null}
      <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Choose a new password">
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          error={fieldErrors.currentPassword}
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          hint={PASSWORD_HINT}
          error={fieldErrors.newPassword}
        />
        <Button type="submit" size="lg" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? <Spinner className="size-4" /> : null}
          Save new password
        </Button>
      </form>
      <SignOutLink />
    </AuthLayout>
  );
}

function CodeField({ error, label = 'Six-digit code', autoFocus = false }: { error?: string; label?: string; autoFocus?: boolean }) {
  return <TextField label={label} name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus={autoFocus} error={error} />;
}

function EnrolAuthenticator({ email }: { email: string }) {
  useDocumentTitle('Set Up Two-Factor Authentication');
  const done = useStepDone();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [saved, setSaved] = useState(false);
  const start = useMutation({ mutationFn: () => apiParse(totpEnrolmentSchema, 'POST', '/api/auth/two-factor/enrolment') });
  const { mutate: startEnrolment } = start;
  useEffect(() => startEnrolment(), [startEnrolment]);
  const { formRef, fieldErrors, mutation, serverMessage, onSubmit } = useStepForm(
    totpCodeSchema,
    readCode,
    (data) => apiParse(recoveryCodesSchema, 'POST', '/api/auth/two-factor/enrolment/confirm', data),
    (result) => setRecoveryCodes((result as { recoveryCodes: string[] }).recoveryCodes),
  );

  if (recoveryCodes) {
    return (
      <AuthLayout title="Save your recovery codes" subtitle="Each code signs you in once if you lose your phone. They are shown only now.">
        <ol
          className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-base text-slate-900"
          aria-label="Recovery codes"
          data-testid="recovery-codes"
        >
          {recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ol>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button type="button" variant="secondary" onClick={() => void navigator.clipboard?.writeText(recoveryCodes.join('\n'))}>
            Copy
          </Button>
          <Button
            type="button"
            variant="secondary"
            onClick={() => downloadText('muster-recovery-codes.txt', `Muster recovery codes for ${email}\n\n${recoveryCodes.join('\n')}\n`)}
          >
            Download
          </Button>
        </div>
        <label className="mt-6 flex items-start gap-3 text-sm text-slate-900">
          <input type="checkbox" className="mt-0.5 size-5" checked={saved} onChange={(e) => setSaved(e.target.checked)} />I saved these codes somewhere safe
        </label>
        <Button type="button" size="lg" className="mt-6 w-full" disabled={!saved} onClick={() => void done()}>
          Continue to Muster
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Set up two-factor authentication"
      subtitle="Your school asks for a code from an authenticator app (such as Google Authenticator or Microsoft Authenticator) at each sign-in."
    >
      {start.isError ? (
        <Alert className="mb-6">{readErrorBody(start.error).message ?? 'The set-up could not start. Reload the page to try again.'}</Alert>
      ) : null}
      {serverMessage ? <Alert className="mb-6">{serverMessage}</Alert> : null}
      {start.data ? (
        <>
          <ol className="mb-6 list-decimal space-y-3 pl-5 text-sm text-slate-800">
            <li>In the authenticator app, add an account and scan this code.</li>
            <li>
              No camera? Enter this key instead:{' '}
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm break-all text-slate-900" data-testid="totp-secret">
                {start.data.secret}
              </code>
            </li>
            <li>Type the six-digit code the app shows.</li>
          </ol>
          <img src={start.data.qrCodeDataUrl} width={200} height={200} alt={`QR code to add ${email} to an authenticator app`} className="mb-6" />
          <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Confirm the authenticator">
            <CodeField error={fieldErrors.code} />
            <Button type="submit" size="lg" className="w-full" disabled={mutation.isPending}>
              {mutation.isPending ? <Spinner className="size-4" /> : null}
              Turn on two-factor authentication
            </Button>
          </form>
        </>
      ) : !start.isError ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4 text-blue-700" /> Preparing your code…
        </p>
      ) : null}
      <SignOutLink />
    </AuthLayout>
  );
}

function EnterCode() {
  useDocumentTitle('Enter Your Code');
  const done = useStepDone();
  const [useRecovery, setUseRecovery] = useState(false);
  const { formRef, fieldErrors, mutation, serverMessage, onSubmit } = useStepForm(
    totpCodeSchema,
    readCode,
    (data) => apiParse(stepDoneSchema, 'POST', '/api/auth/two-factor/verify', data),
    () => void done(),
  );
  return (
    <AuthLayout
      title="Enter your code"
      subtitle={
        useRecovery
          ? 'Type one of the recovery codes you saved; each works once.'
          : 'Open your authenticator app and type the six-digit code it shows for Muster.'
      }
    >
      {serverMessage ? <Alert className="mb-6">{serverMessage}</Alert> : null}
      <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Two-factor code" key={String(useRecovery)}>
        {/* The code is all this step asks for: focus it (the form is keyed, so switching to a recovery code focuses that field). */}
        {useRecovery ? (
          <TextField label="Recovery code" name="code" autoComplete="off" required autoFocus error={fieldErrors.code} />
        ) : (
          <CodeField error={fieldErrors.code} autoFocus />
        )}
        <Button type="submit" size="lg" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? <Spinner className="size-4" /> : null}
          Verify
        </Button>
      </form>
      <button type="button" className="mt-4 text-sm font-medium text-blue-700 underline underline-offset-2" onClick={() => setUseRecovery((v) => !v)}>
        {useRecovery ? 'Use the authenticator app instead' : 'Use a recovery code'}
      </button>
      <div>
        <SignOutLink />
      </div>
    </AuthLayout>
  );
}
