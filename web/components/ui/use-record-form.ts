import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { get, useForm, useWatch, type DefaultValues, type FieldValues, type Path, type PathValue, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { focusFirstInvalid } from '../../lib/form-validation.ts';
import { serverFormErrors } from './form-errors.ts';
import { notifyFailure, notifySuccess } from './notify.ts';

type SaveHandlers = { onSuccess: () => void; onError: (error: Error) => void };

type SaveOptions<I> = {
  /** The record being edited, or null to add one. */
  id: number | null;
  create: { mutate: (input: I, handlers: SaveHandlers) => void; isPending: boolean };
  update: { mutate: (vars: { id: number; input: I }, handlers: SaveHandlers) => void; isPending: boolean };
  /** The success toast's title ('Course created' / 'Course updated'). */
  savedTitle: string;
  /** The failure toast's text (SPEC §8). */
  failureText: string;
  onDone: () => void;
};

type RecordFormOptions<V extends FieldValues, S extends z.ZodType> = {
  /** What the inputs start with: strings, as inputs hold them (plus any non-text value such as a list of ids). */
  defaultValues: V;
  /** The shared contract from common/ that the server checks too. */
  schema: S;
  /** The inputs' values turned into what the contract reads ('' → null for optional numbers, …). */
  toCandidate: (values: V) => unknown;
};

/**
 * A record form (Add/Edit dialogs) on React Hook Form, checked with the shared zod contract
 * through @hookform/resolvers. Errors show on submit only; each time, focus moves to the first
 * invalid field. A server refusal is shown beside its fields (or as one message when it names
 * none) with the SPEC §8 failure toast.
 */
export function useRecordForm<V extends FieldValues, S extends z.ZodType>({ defaultValues, schema, toCandidate }: RecordFormOptions<V, S>) {
  const formRef = useRef<HTMLFormElement>(null);
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  // The inputs' strings go through toCandidate, then the contract: its messages are the server's.
  const contract = z.preprocess((values) => toCandidate(values as V), schema) as unknown as z.ZodType<z.output<S>, V>;
  const form = useForm<V, unknown, z.output<S>>({
    defaultValues: defaultValues as DefaultValues<V>,
    resolver: zodResolver(contract) as Resolver<V, unknown, z.output<S>>,
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const fields = Object.keys(defaultValues);
  // Every input is controlled by these values: a select's options may arrive after its value.
  const values = useWatch({ control: form.control }) as V;

  /** An input's name, value, ref and change handler. */
  const bind = <N extends Path<V>>(name: N) => ({ ...form.register(name), value: values[name] as PathValue<V, N> });

  const set = <N extends Path<V>>(name: N, value: PathValue<V, N>) => form.setValue(name, value);

  const errorOf = (name: string): string | undefined => {
    // A dotted name ('breaks.1.end') reads an item's field of a list.
    const error = get(form.formState.errors, name) as { message?: unknown } | ({ message?: unknown } | undefined)[] | undefined;
    // A list field typed as one input (e.g. "450, 900"): its items' errors are shown on it.
    const message = Array.isArray(error) ? error.find((e) => typeof e?.message === 'string')?.message : error?.message;
    return typeof message === 'string' ? message : undefined;
  };

  /** The submit handler: `save` gets the parsed input, or the errors are shown. */
  const submit = (save: (data: z.output<S>) => void) =>
    form.handleSubmit(
      (data) => {
        setServerMessage(null);
        save(data);
      },
      () => {
        setServerMessage(null);
        focusFirstInvalid(formRef.current);
      },
    );

  /**
   * The usual Add/Edit save: create or update, then a success toast and onDone, or the refusal
   * shown. Returns what FormDialogBody needs besides its labels.
   */
  const submitSave = (opts: SaveOptions<z.output<S>>) => ({
    formRef,
    serverMessage,
    pending: opts.create.isPending || opts.update.isPending,
    onSubmit: submit((data) => {
      const handlers: SaveHandlers = {
        onSuccess: () => {
          notifySuccess(opts.savedTitle);
          opts.onDone();
        },
        onError: (e) => showRefusal(e, opts.failureText),
      };
      if (opts.id != null) opts.update.mutate({ id: opts.id, input: data }, handlers);
      else opts.create.mutate(data, handlers);
    }),
  });

  function showRefusal(error: unknown, failureText: string): void {
    const body = serverFormErrors(error, fields);
    form.clearErrors();
    for (const [field, message] of Object.entries(body.fieldErrors)) form.setError(field as Path<V>, { type: 'server', message });
    setServerMessage(body.message);
    focusFirstInvalid(formRef.current);
    notifyFailure(error, failureText);
  }

  return { formRef, bind, set, values, errorOf, serverMessage, submit, submitSave, showRefusal };
}

/** A form's starting strings: each field's value on the record as text; '' when absent or adding. */
export function textValues<const K extends string>(record: { [F in NoInfer<K>]?: unknown } | null, keys: readonly K[]): Record<K, string> {
  const values = {} as Record<K, string>;
  for (const key of keys) values[key] = record?.[key] == null ? '' : String(record[key]);
  return values;
}

/** '' → null, else the number ('' means "not given" for optional numeric fields). */
export function numberOrNull(value: string): number | null {
  return value.trim() === '' ? null : Number(value);
}

/** '' → undefined, so a required numeric field reports "… is required" rather than a range error. */
export function numberOrUndefined(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}
