/** Formatting for the enforcement screen: times in the location's zone, relative ages, money, masked phones. */

// Creating a DateTimeFormat costs far more than using one; a results page shows dozens of times (bench:screen).
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short',
      });
    } catch {
      formatter = null;
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function formatInZone(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatterFor(timeZone)?.format(date) ?? date.toISOString();
}

/** "23 min", "2 h 10 min", "3 d 4 h": the largest two units, never "0 min" for a past or future moment. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(1, Math.floor(Math.abs(ms) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return mins > 0 ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}

/** "expires in 23 min" or "expired 2 h 10 min ago", from the expiry (unix seconds) and now (epoch ms). */
export function describeExpiry(expiryUnixSeconds: number, now: number): string {
  const delta = expiryUnixSeconds * 1000 - now;
  return delta > 0 ? `expires in ${formatDuration(delta)}` : `expired ${formatDuration(delta)} ago`;
}

/** "synced 4 min ago", "synced just now", "never synced". */
export function describeSyncAge(lastSync: number | null, now: number): string {
  if (lastSync === null) return 'never synced';
  const delta = now - lastSync;
  return delta < 60_000 ? 'synced just now' : `synced ${formatDuration(delta)} ago`;
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export function formatAmount(amount: number): string {
  return money.format(amount);
}

/** All but the last four digits hidden: an officer can confirm a number the driver reads out, nothing more. */
export function maskPhone(phone: string | null): string {
  if (!phone) return '—';
  const digits = phone.replace(/\D/g, '');
  if (digits.length <= 4) return '•'.repeat(digits.length);
  return `•••• ${digits.slice(-4)}`;
}
