import { KeyRound } from 'lucide-react';
import { useState, type FormEvent, type RefObject } from 'react';
import type { z } from 'zod';
import type { typedCodeResultSchema } from '../../common/attendance.ts';
import { Alert } from '../components/ui/alert.tsx';
import { ApiError, apiJson, readErrorBody } from '../lib/api.ts';
import { ScanField } from './scan-field.tsx';
import { storePass } from './stored.ts';

/**
 * /attendance/scan with no session: a student who cannot scan the QR (back row, broken camera)
 * types the six digits shown in class. The server finds the running class and gives this phone
 * the same short pass as a fresh QR code; then the usual form opens.
 */
export function CodeEntry({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const digits = code.replace(/\D/g, '');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      // Typed from the contract, not parsed: zod stays out of this bundle.
      const body = await apiJson<z.infer<typeof typedCodeResultSchema>>('POST', '/api/qr-sessions/code', { code: digits });
      storePass(body.sessionId, { pass: body.pass, expiresAt: Date.parse(body.passExpiresAt) });
      window.location.assign(`/attendance/scan/${encodeURIComponent(body.sessionId)}`);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : null;
      setError((status !== null && status < 500 && readErrorBody(err).message) || 'Could not check the code. Please try again.');
      setSending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="text-center">
        <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-blue-50">
          <KeyRound className="size-7 text-blue-700" />
        </span>
        <h1 ref={headingRef} tabIndex={-1} className="mt-4 text-xl font-bold text-slate-900 outline-none">
          Enter the class code
        </h1>
        <p className="mt-2 text-sm leading-6 text-slate-600">Type the six digits shown beside the QR code in your classroom.</p>
      </div>
      <ScanField
        label="Class code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        hint="The code changes every 15 seconds; type the one on the screen now."
      />
      {error ? <Alert>{error}</Alert> : null}
      <button
        type="submit"
        disabled={digits.length !== 6 || sending}
        className="flex h-12 w-full items-center justify-center rounded-xl bg-blue-700 px-4 text-base font-semibold text-white shadow-sm transition-colors hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:bg-blue-700/50"
      >
        {sending ? 'Checking...' : 'Continue'}
      </button>
    </form>
  );
}
