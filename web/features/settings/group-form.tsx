import { Lock, Save } from 'lucide-react';
import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, useWatch, type FieldErrors as FormErrors, type Resolver } from 'react-hook-form';
import type { Settings, SettingsGroup } from '../../../common/settings.ts';
import { Button } from '../../components/ui/button.tsx';
import { TimeZoneField } from '../../components/time-zone-field.tsx';
import { Card } from '../../components/ui/card.tsx';
import { notifyFailure } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SwitchField } from '../../components/ui/switch-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { readErrorBody } from '../../lib/api.ts';
import { checkInteger, IntegerField, type IntegerSpec } from './settings-fields.tsx';
import { useSaveNotificationDefaults, useSaveSettings } from './settings-api.ts';
import { TimeZoneChangeDialog } from './time-zone-change-dialog.tsx';

export type SwitchSpec = { label: string; description: string };

export type GroupSpec = {
  group: SettingsGroup;
  title: string;
  description: string;
  /** SPEC §8 'Settings Saved' description for this tab. */
  savedText: string;
  integers: Record<string, IntegerSpec>;
  switches: Record<string, SwitchSpec>;
  /** The attendance group also holds the school's time zone. */
  timeZone?: { label: string; hint: string };
  /** Times of day, HH:MM (the system group's nightly backup time). */
  times?: Record<string, { label: string; hint: string }>;
  texts?: Record<string, { label: string; hint: string; maxLength: number }>;
  /** Optional calendar dates (blank: none), such as the date Muster keeps attendance from. */
  dates?: Record<string, { label: string; hint: string }>;
  /** Where the form saves: PUT /api/settings (default) or the school's notification defaults. */
  target?: 'settings' | 'notification-defaults';
  /** Id stem of the form's title when two forms show one group. */
  formId?: string;
  saveLabel?: string;
};

const TIME_OF_DAY = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

type Draft = Record<string, string | boolean>;

function draftOf(spec: GroupSpec, values: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const key of Object.keys(spec.integers)) draft[key] = String(values[key] ?? '');
  for (const key of Object.keys(spec.switches)) draft[key] = Boolean(values[key]);
  if (spec.timeZone) draft.timeZone = String(values.timeZone ?? '');
  for (const key of Object.keys(spec.times ?? {})) draft[key] = String(values[key] ?? '');
  for (const key of Object.keys(spec.texts ?? {})) draft[key] = String(values[key] ?? '');
  for (const key of Object.keys(spec.dates ?? {})) draft[key] = String(values[key] ?? '');
  return draft;
}

/**
 * The tab's checks as a React Hook Form resolver: integers against the shared schema's ranges and
 * messages (settings-fields.tsx), times of day; the answer is the group's values to send.
 */
function groupResolver(spec: GroupSpec): Resolver<Draft, unknown, Record<string, unknown>> {
  return (draft) => {
    const found: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    for (const [key, intSpec] of Object.entries(spec.integers)) {
      const checked = checkInteger(intSpec, String(draft[key]));
      if ('error' in checked) found[key] = checked.error;
      else values[key] = checked.value;
    }
    for (const key of Object.keys(spec.switches)) values[key] = draft[key] === true;
    if (spec.timeZone) values.timeZone = draft.timeZone;
    for (const [key, t] of Object.entries(spec.times ?? {})) {
      if (TIME_OF_DAY.test(String(draft[key]))) values[key] = draft[key];
      else found[key] = `${t.label} must be a time of day such as 02:00`;
    }
    for (const [key, t] of Object.entries(spec.texts ?? {})) {
      const text = String(draft[key]).trim();
      if (text.length <= t.maxLength) values[key] = text;
      else found[key] = `${t.label} must be at most ${t.maxLength} characters`;
    }
    for (const [key, d] of Object.entries(spec.dates ?? {})) {
      const text = String(draft[key]).trim();
      if (text === '') values[key] = null;
      else if (/^\d{4}-\d{2}-\d{2}$/.test(text)) values[key] = text;
      else found[key] = `${d.label} must be a date`;
    }
    if (Object.keys(found).length === 0) return { values, errors: {} };
    const errors: FormErrors<Draft> = {};
    for (const [key, message] of Object.entries(found)) errors[key] = { type: 'validate', message };
    return { values: {}, errors };
  };
}

/**
 * One settings tab's form (React Hook Form): integers checked with the shared schema's ranges and
 * messages before anything is sent, the server's field errors shown beside their fields, and a
 * save that sends only this tab's group. Without the edit right (SPEC §6) the fields are
 * read-only and there is no save button.
 */
export function GroupForm({ spec, saved, canEdit, notice }: { spec: GroupSpec; saved: Settings[SettingsGroup]; canEdit: boolean; notice?: ReactNode }) {
  const initial = useMemo(() => draftOf(spec, saved as Record<string, unknown>), [spec, saved]);
  const form = useForm<Draft, unknown, Record<string, unknown>>({
    defaultValues: initial,
    resolver: groupResolver(spec),
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const draft = useWatch({ control: form.control }) as Draft;
  const errorOf = (key: string): string | undefined => form.formState.errors[key]?.message;
  const formRef = useRef<HTMLFormElement>(null);
  const saveSettings = useSaveSettings();
  const saveDefaults = useSaveNotificationDefaults();
  const save = spec.target === 'notification-defaults' ? saveDefaults : saveSettings;
  const titleId = `${spec.formId ?? spec.group}-settings-title`;
  const dirty = Object.keys(initial).some((k) => initial[k] !== draft[k]);
  const zoneChanged = spec.timeZone != null && draft.timeZone !== initial.timeZone;
  // Checked values waiting for the time-zone confirmation (a new zone recounts all history).
  const [awaitingZone, setAwaitingZone] = useState<Record<string, unknown> | null>(null);

  const set = (key: string, value: string | boolean) => {
    form.setValue(key, value);
    if (errorOf(key)) form.clearErrors(key);
  };

  const focusField = (key: string) => formRef.current?.querySelector<HTMLElement>(`[name="${key}"]`)?.focus();

  const onSubmit = (event: FormEvent) => {
    if (!canEdit) {
      event.preventDefault();
      return;
    }
    // Built inside the event: the handlers touch the form element, never during render.
    void form.handleSubmit(
      (values) => {
        if (zoneChanged) setAwaitingZone(values);
        else send(values);
      },
      (errors) => {
        const firstInvalid = Object.keys(errors)[0];
        if (firstInvalid) focusField(firstInvalid);
      },
    )(event);
  };

  /** Save the group; on a refusal, the server's field errors go beside their fields. */
  const send = (values: Record<string, unknown>) =>
    save.mutate(
      { group: spec.group, values: values as Settings[SettingsGroup], savedText: spec.savedText },
      {
        onError: (err) => {
          setAwaitingZone(null);
          const { message, fieldErrors } = readErrorBody(err);
          const mine: Record<string, string> = {};
          for (const [field, text] of Object.entries(fieldErrors)) {
            const [group, key] = field.split('.');
            if (group === spec.group && key) mine[key] = text;
          }
          if (Object.keys(mine).length > 0) {
            form.clearErrors();
            for (const [key, text] of Object.entries(mine)) form.setError(key, { type: 'server', message: text });
            focusField(Object.keys(mine)[0]!);
          }
          notifyFailure(err, message ?? 'Failed to save settings. Please try again.', 'Settings Not Saved');
        },
      },
    );

  const integerKeys = Object.keys(spec.integers);
  const timeKeys = Object.keys(spec.times ?? {});
  const textKeys = Object.keys(spec.texts ?? {});
  const dateKeys = Object.keys(spec.dates ?? {});
  return (
    <Card>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
        <div className="border-b border-slate-100 px-5 py-4 sm:px-6">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {spec.title}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">{spec.description}</p>
        </div>
        <div className="px-5 py-5 sm:px-6">
          {notice}
          {integerKeys.length > 0 || spec.timeZone || timeKeys.length > 0 || textKeys.length > 0 || dateKeys.length > 0 ? (
            <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
              {textKeys.map((key) => (
                <TextField
                  key={key}
                  name={key}
                  label={spec.texts![key]!.label}
                  hint={spec.texts![key]!.hint}
                  maxLength={spec.texts![key]!.maxLength}
                  value={String(draft[key])}
                  onChange={(e) => set(key, e.target.value)}
                  readOnly={!canEdit}
                  error={errorOf(key)}
                />
              ))}
              {integerKeys.map((key) => (
                <IntegerField
                  key={key}
                  name={key}
                  spec={spec.integers[key]!}
                  value={String(draft[key])}
                  onChange={(v) => set(key, v)}
                  error={errorOf(key)}
                  readOnly={!canEdit}
                />
              ))}
              {timeKeys.map((key) => (
                <TextField
                  key={key}
                  type="time"
                  name={key}
                  label={spec.times![key]!.label}
                  hint={spec.times![key]!.hint}
                  value={String(draft[key])}
                  onChange={(e) => set(key, e.target.value)}
                  readOnly={!canEdit}
                  error={errorOf(key)}
                />
              ))}
              {dateKeys.map((key) => (
                <TextField
                  key={key}
                  type="date"
                  name={key}
                  label={spec.dates![key]!.label}
                  hint={spec.dates![key]!.hint}
                  value={String(draft[key])}
                  onChange={(e) => set(key, e.target.value)}
                  readOnly={!canEdit}
                  error={errorOf(key)}
                />
              ))}
              {spec.timeZone ? (
                <div className="space-y-2">
                  <TimeZoneField
                    label={spec.timeZone.label}
                    hint={spec.timeZone.hint}
                    value={String(draft.timeZone)}
                    onChange={(zone) => set('timeZone', zone)}
                    disabled={!canEdit}
                    error={errorOf('timeZone')}
                  />
                  {zoneChanged ? (
                    <p role="status" className="text-sm text-amber-900">
                      A new time zone recounts every day of history on the new clock. Saving shows what changes and asks you to confirm.
                    </p>
                  ) : null}
                </div>
              ) : null}
            </div>
          ) : null}
          {Object.keys(spec.switches).length > 0 ? (
            <div className={integerKeys.length > 0 || spec.timeZone ? 'mt-6 border-t border-slate-100' : undefined}>
              <div className="divide-y divide-slate-100">
                {Object.entries(spec.switches).map(([key, s]) => (
                  <SwitchField
                    key={key}
                    label={s.label}
                    description={s.description}
                    checked={draft[key] === true}
                    onCheckedChange={(v) => set(key, v)}
                    disabled={!canEdit}
                  />
                ))}
              </div>
            </div>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-end sm:px-6">
          {canEdit ? (
            <>
              {dirty ? (
                <>
                  <p className="text-sm text-slate-600 sm:mr-auto">You have unsaved changes.</p>
                  <Button variant="ghost" onClick={() => form.reset(initial)}>
                    Discard changes
                  </Button>
                </>
              ) : null}
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? <Spinner className="size-4" /> : <Save aria-hidden="true" className="size-4" />}
                {save.isPending ? 'Saving…' : (spec.saveLabel ?? 'Save Settings')}
              </Button>
            </>
          ) : (
            <p className="inline-flex items-center gap-1.5 text-sm text-slate-600">
              <Lock aria-hidden="true" className="size-4" /> Read only for your role
            </p>
          )}
        </div>
      </form>
      {spec.timeZone ? (
        <TimeZoneChangeDialog
          timeZone={awaitingZone ? String(awaitingZone.timeZone) : null}
          saving={save.isPending}
          onConfirm={() => awaitingZone && send(awaitingZone)}
          onCancel={() => setAwaitingZone(null)}
        />
      ) : null}
    </Card>
  );
}
