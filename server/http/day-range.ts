import { isCalendarDate } from '../../src/contract/calendar';

/**
 * What a list's `from`/`to` day filter schema cannot say alone: real calendar days ("2026-02-30" is none), in order.
 * The 400's sentence naming the field, or null. One reading for every list filtered by days.
 */
export function dayRangeProblem(query: { from?: string | undefined; to?: string | undefined }): string | null {
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value && !isCalendarDate(value)) return `Invalid query: ${field}: ${value} is not a calendar date.`;
  }
  if (query.from && query.to && query.from > query.to) return `Invalid query: from (${query.from}) is after to (${query.to}).`;
  return null;
}
