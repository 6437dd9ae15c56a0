import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { maintenanceNoticeInputSchema, maintenanceNoticeSchema } from '../../../common/maintenance.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { TextField } from '../../components/ui/text-field.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { apiParse, apiRequest, readErrorBody, type FieldErrors } from '../../lib/api.ts';
import { validateForm } from '../../lib/form-validation.ts';

const LIST_KEY = ['/api/maintenance-notices'] as const;
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** A datetime-local value (this browser's time) as an ISO instant. */
const toIso = (local: FormDataEntryValue | null) => (typeof local === 'string' && local ? new Date(local).toISOString() : '');

/** Settings › System (super_admin): announce maintenance to staff as a banner, and by e-mail where they want it. */
export function MaintenancePanel() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: LIST_KEY, queryFn: () => apiParse(z.array(maintenanceNoticeSchema), 'GET', LIST_KEY[0]) });
  const [errors, setErrors] = useState<FieldErrors>({});
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: LIST_KEY }), queryClient.invalidateQueries({ queryKey: ['/api/maintenance-notices/current'] })]);
  const post = useMutation({
    mutationFn: (body: z.infer<typeof maintenanceNoticeInputSchema>) => apiParse(maintenanceNoticeSchema, 'POST', LIST_KEY[0], body),
    onSuccess: async (n) => {
      notifySuccess('Notice posted', n.emailedTo ? `Shown to staff and e-mailed to ${n.emailedTo}.` : 'Shown to staff as a banner.');
      await refresh();
    },
    onError: (e) => setErrors(readErrorBody(e).fieldErrors),
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `${LIST_KEY[0]}/${id}`),
    onSuccess: () => refresh(),
    onError: (e) => notifyFailure(e, 'The notice could not be removed.'),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { data, errors: found } = validateForm(maintenanceNoticeInputSchema, {
      message: form.get('message'),
      startsAt: toIso(form.get('startsAt')),
      endsAt: toIso(form.get('endsAt')),
    });
    setErrors(found);
    if (data) post.mutate(data, { onSuccess: () => (event.target as HTMLFormElement).reset() });
  };
  const serverMessage = post.isError && Object.keys(readErrorBody(post.error).fieldErrors).length === 0 ? readErrorBody(post.error).message : null;
  return (
    <Card>
      <div className="border-b border-slate-100 px-5 py-4 sm:px-6">
        <h2 className="text-base font-semibold text-slate-900">Maintenance Notices</h2>
        <p className="mt-0.5 text-sm text-slate-600">
          Shown as a banner to signed-in staff until the window ends; e-mailed to staff whose maintenance notices are on.
        </p>
      </div>
      <form noValidate onSubmit={onSubmit} className="grid gap-4 px-5 py-4 sm:grid-cols-2 sm:px-6" aria-label="Post a maintenance notice">
        {serverMessage ? <Alert className="sm:col-span-2">{serverMessage}</Alert> : null}
        <TextareaField label="Message" name="message" rows={2} maxLength={500} className="sm:col-span-2" error={errors.message} />
        <TextField label="Starts (your time)" name="startsAt" type="datetime-local" error={errors.startsAt} />
        <TextField label="Ends (your time)" name="endsAt" type="datetime-local" error={errors.endsAt} />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={post.isPending}>
            Post notice
          </Button>
        </div>
      </form>
      {list.data && list.data.length > 0 ? (
        <ul className="divide-y divide-slate-100 border-t border-slate-100" aria-label="Maintenance notices">
          {list.data.map((n) => (
            <li key={n.id} className="flex items-start justify-between gap-3 px-5 py-3 text-sm sm:px-6">
              <span>
                <span className="font-medium text-slate-900">
                  {when.format(Date.parse(n.startsAt))} – {when.format(Date.parse(n.endsAt))}
                </span>
                <span className="block text-slate-700">{n.message}</span>
              </span>
              <IconButton
                icon={Trash2}
                tone="danger"
                label={`Remove the notice of ${when.format(Date.parse(n.startsAt))}`}
                onClick={() => remove.mutate(n.id)}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
