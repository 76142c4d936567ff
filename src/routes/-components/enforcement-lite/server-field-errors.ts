import { fieldErrorsOf, messageOf } from '../../../api/error-data';

/**
 * After a failed save (docs/sections.md "Forms"): a 400's fieldErrors go to their fields through `place` (the form
 * sets them as `onServer`, cleared when the field changes); what is not a field of this form, or a failure without
 * field errors, comes back to be said above the buttons (null when every message found its field).
 */
export function placeServerErrors(
  error: unknown,
  fields: readonly string[],
  place: (field: string, message: string) => void,
): { placed: boolean; unplaced: string | null } {
  const fieldErrors = fieldErrorsOf(error);
  if (!fieldErrors) return { placed: false, unplaced: messageOf(error) };
  const entries = Object.entries(fieldErrors);
  const placed = entries.filter(([field]) => fields.includes(field));
  for (const [field, message] of placed) place(field, message);
  const rest = entries.filter(([field]) => !fields.includes(field));
  if (rest.length > 0) return { placed: placed.length > 0, unplaced: rest.map(([field, message]) => `${field}: ${message}`).join('; ') };
  return { placed: placed.length > 0, unplaced: placed.length > 0 ? null : messageOf(error) };
}
