/**
 * How the admin sections show money, times and counts. Money arrives in integer cents and is formatted from an exact
 * decimal string, never through float arithmetic; times are shown in the record's location's time zone, with the
 * zone's abbreviation, since staff in one city look at locations in others.
 */

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format;
}

/** 123456 → "$1,234.56"; -250 → "-$2.50". */
export function formatMoney(cents: number, currency = 'USD'): string {
  const whole = Math.trunc(Math.abs(cents) / 100);
  const fraction = String(Math.abs(cents) % 100).padStart(2, '0');
  // Intl formats decimal strings exactly (ES2023); the type declarations lag behind.
  const decimal = `${cents < 0 ? '-' : ''}${whole}.${fraction}` as unknown as number;
  return moneyFormat(currency).format(decimal);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat | null>();

function dateTimeFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = dateTimeFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short',
      });
    } catch {
      format = null;
    }
    dateTimeFormats.set(timeZone, format);
  }
  return format;
}

/** "Nov 23, 2026, 3:04 PM CST": the moment in `timeZone`, with its abbreviation (or offset, "GMT+5:30"). */
export function formatDateTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return dateTimeFormat(timeZone)?.format(date) ?? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const calendarDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });

/** "2026-11-23" (a calendar day, no zone) → "Nov 23, 2026". */
export function formatCalendarDate(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : calendarDay.format(date);
}

const counts = new Intl.NumberFormat('en-US');

/** 1234 → "1,234"; with `orMore`, "10,000+". */
export function formatCount(count: number, orMore = false): string {
  return `${counts.format(count)}${orMore ? '+' : ''}`;
}

/** Only the last four digits ever reach the console: "•••• •••• 1234". */
export function maskedPhone(last4: string | null): string {
  return last4 ? `•••• •••• ${last4}` : '—';
}
