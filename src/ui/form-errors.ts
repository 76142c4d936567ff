import type { AnyFieldApi, AnyFieldLikeMetaBase, AnyFieldMeta } from '@tanstack/react-form';
import { fieldErrorsOf, messageOf } from '../api/error-data';

/**
 * How every section form says what is wrong (docs/sections.md "Forms"): the schema's messages at a field once it was
 * changed or left, or after a submit; the server's (a 400's fieldErrors) at once, until that field changes.
 */

/** The first message a field should show, or nothing. */
export function shownError(meta: AnyFieldMeta, submitted: boolean): string | undefined {
  const serverMessage = meta.errorMap.onServer;
  if (typeof serverMessage === 'string' && serverMessage) return serverMessage;
  if (!(meta.isTouched || meta.isBlurred || submitted)) return undefined;
  for (const error of meta.errors as unknown[]) {
    if (typeof error === 'string' && error) return error;
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  }
  return undefined;
}

/** A field's `listeners`: the server's message stays at the field until the field changes. */
export const clearServerError = {
  onChange: ({ fieldApi }: { fieldApi: AnyFieldApi }) =>
    fieldApi.setMeta((meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: undefined } })),
};

/** The part of a TanStack form that takes the server's messages. */
interface ServerErrorTarget {
  // The base meta is what TanStack's setFieldMeta hands its updater: typed so, a real form's API fits here.
  setFieldMeta: (field: never, updater: (meta: AnyFieldLikeMetaBase) => AnyFieldLikeMetaBase) => void;
}

/**
 * After a failed save: a 400's fieldErrors go to their fields (`onServer`, cleared when the field changes; `fieldOf`
 * maps a server field name to the form's, e.g. `amount_cents` → `amount`); what is not a field of this form, or a
 * failure without field errors, comes back in words to be said above the buttons (null when every message found its
 * field).
 */
export function placeServerErrors(
  form: ServerErrorTarget,
  error: unknown,
  fields: readonly string[],
  fieldOf: (serverField: string) => string = (field) => field,
): string | null {
  const fieldErrors = fieldErrorsOf(error);
  if (!fieldErrors) return messageOf(error);
  const rest: string[] = [];
  let placed = 0;
  for (const [serverField, message] of Object.entries(fieldErrors)) {
    const field = fieldOf(serverField);
    if (!fields.includes(field)) {
      rest.push(message);
      continue;
    }
    placed += 1;
    form.setFieldMeta(field as never, (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: message } }));
  }
  if (rest.length > 0) return rest.join(' ');
  return placed > 0 ? null : messageOf(error);
}
