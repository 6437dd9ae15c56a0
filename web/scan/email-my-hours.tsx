import { Mail } from 'lucide-react';
import { useState } from 'react';
import { apiJson, readErrorBody } from '../lib/api.ts';

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; message: string } | { kind: 'failed'; message: string };

/**
 * "E-mail me my hours" on the success screen: the ID and e-mail the student just typed are sent
 * to POST /api/my-hours/request; a link to their hours arrives if they match the record on file.
 */
export function EmailMyHours({ studentId, email }: { studentId: string; email: string }) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const send = async () => {
    setStatus({ kind: 'sending' });
    try {
      // The server's answer is the same whether or not the details matched: show it as it is.
      const answer = await apiJson<{ message?: unknown }>('POST', '/api/my-hours/request', { studentId, email });
      setStatus({ kind: 'sent', message: typeof answer?.message === 'string' ? answer.message : 'Request sent.' });
    } catch (error) {
      setStatus({ kind: 'failed', message: readErrorBody(error).message ?? 'Your request could not be sent. Try again at /my-hours.' });
    }
  };
  return (
    <div className="mt-5 border-t border-slate-200 pt-4 text-sm">
      {status.kind === 'sent' ? (
        <p role="status" className="text-slate-700">
          {status.message}
        </p>
      ) : (
        <>
          <button
            type="button"
            onClick={() => void send()}
            disabled={status.kind === 'sending'}
            className="inline-flex min-h-11 items-center gap-2 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-60"
          >
            <Mail aria-hidden="true" className="size-4" />
            E-mail me my hours
          </button>
          <p className="mt-2 text-slate-600">A link to your hours, sent to {email}.</p>
          {status.kind === 'failed' ? (
            <p role="alert" className="mt-2 text-red-700">
              {status.message}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
