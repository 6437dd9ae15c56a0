import { useMutation } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { z } from 'zod';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { apiParse, readErrorBody } from '../../lib/api.ts';

/** Settings › Notifications (administrators): the weekly report's schedule, and a preview sent to oneself now. */
export function WeeklyReportPreview() {
  const preview = useMutation({ mutationFn: () => apiParse(z.object({ to: z.string() }), 'POST', '/api/digests/weekly/preview') });
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3 px-5 py-4 sm:px-6">
      <div>
        <h2 className="text-base font-semibold text-slate-900">Weekly Report</h2>
        <p className="mt-0.5 text-sm text-slate-600">
          Sent to administrators on Mondays at 07:00 school time when weekly reports are on: attendance by course, students at risk, compliance, imports and
          exports.
        </p>
      </div>
      <Button
        variant="secondary"
        disabled={preview.isPending}
        onClick={() =>
          preview.mutate(undefined, {
            onSuccess: ({ to }) => notifySuccess('Preview Queued', `The weekly report is on its way to ${to}.`),
            onError: (err) => notifyFailure(err, readErrorBody(err).message ?? 'The preview could not be queued.'),
          })
        }
      >
        <Mail aria-hidden="true" className="size-4" />
        Send me a preview now
      </Button>
    </Card>
  );
}
