import { formatCalendarDate, formatCount, formatDateTime, formatMoney } from './format';

/**
 * How a History panel reads a field's value, by the field's type in the section's contract. A section describes its
 * fields once (`{ amount_requested_cents: 'money', valid_from: 'instant', status: { enum: TICKET_STATUS_LABELS } }`)
 * instead of writing its own formatter, so "1200" reads "$12.00", a time reads on the record's clock, and "[1]" reads
 * "Chicago Loop" the same way on every screen.
 */
export type HistoryFieldType =
  | 'text'
  /** Integer cents → "$12.00". */
  | 'money'
  /** An ISO instant → "Nov 23, 2026, 3:04 PM CST" on the panel's clock. */
  | 'instant'
  /** A calendar day "2026-11-23" → "Nov 23, 2026". */
  | 'date'
  /** A count → "1,200". */
  | 'count'
  /** Minutes → "15 min". */
  | 'minutes'
  /** true/false → "Yes"/"No". */
  | 'boolean'
  /** One location id → its name. */
  | 'location'
  /** Location ids → their names, comma-separated. */
  | 'locations'
  /** A stored code → its label ("approved" → "Approved"). */
  | { enum: Readonly<Record<string, string>> }
  /** true/false in the section's own words ("On"/"Off"). */
  | { yes: string; no: string }
  /** Anything else a section must say itself (a role's permissions in words). */
  | { text: (value: unknown) => string };

export type HistoryFieldTypes = Readonly<Record<string, HistoryFieldType>>;

export interface HistoryValueContext {
  /** The clock times are read on: the record's location's zone, or the viewer's. */
  timeZone: string;
  /** A location's name by id; undefined when the viewer's lists do not hold it. */
  locationName?: (id: number) => string | undefined;
}

const NOTHING = '—';
/** "2026-12-31T00:00:00.000Z" and its kin: a value of an undeclared field that is a moment, not text. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function nameOfLocation(id: unknown, context: HistoryValueContext): string {
  const number = typeof id === 'number' ? id : Number(id);
  return (Number.isInteger(number) ? context.locationName?.(number) : undefined) ?? `Location ${String(id)}`;
}

/** Text of a value with no declared type: instants on the panel's clock, true/false in words, lists joined. */
function untypedText(value: unknown, context: HistoryValueContext): string {
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return formatDateTime(value, context.timeZone);
    return ISO_DATE.test(value) ? formatCalendarDate(value) : value;
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  // Undeclared numbers are most often ids ("Ticket 100001"), which a thousands separator would misread.
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? NOTHING : value.map((item) => untypedText(item, context)).join(', ');
  return JSON.stringify(value);
}

/**
 * The type a field's name implies when the section declares none, by the naming rules of the schema: `*_cents` is
 * money, `*_at` an instant, `location_id(s)` locations. A declared type always wins.
 */
export function impliedFieldType(field: string): HistoryFieldType | undefined {
  if (field.endsWith('_cents')) return 'money';
  if (field.endsWith('_at')) return 'instant';
  if (field === 'location_id') return 'location';
  if (field === 'location_ids') return 'locations';
  return undefined;
}

/** A field's value before or after a change, in words. */
export function historyValueText(value: unknown, type: HistoryFieldType | undefined, context: HistoryValueContext): string {
  if (value === null || value === undefined || value === '') return NOTHING;
  if (type === undefined || type === 'text') return untypedText(value, context);
  if (typeof type === 'object') {
    if ('enum' in type) return type.enum[String(value)] ?? untypedText(value, context);
    if ('yes' in type) return typeof value === 'boolean' ? (value ? type.yes : type.no) : untypedText(value, context);
    return type.text(value);
  }
  switch (type) {
    case 'money':
      return typeof value === 'number' && Number.isInteger(value) ? formatMoney(value) : untypedText(value, context);
    case 'instant':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? formatDateTime(value, context.timeZone) : untypedText(value, context);
    case 'date':
      return typeof value === 'string' ? formatCalendarDate(value.slice(0, 10)) : untypedText(value, context);
    case 'count':
      return typeof value === 'number' ? formatCount(value) : untypedText(value, context);
    case 'minutes':
      return typeof value === 'number' ? `${formatCount(value)} min` : untypedText(value, context);
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'Yes' : 'No') : untypedText(value, context);
    case 'location':
      return nameOfLocation(value, context);
    case 'locations':
      return Array.isArray(value) ? value.map((id) => nameOfLocation(id, context)).join(', ') || NOTHING : nameOfLocation(value, context);
  }
}

/**
 * Every action the server writes to the audit log (server/db/*.ts, the refund and redemption functions of migration
 * 015, the seeds), as the past-tense word a reader expects: "approve" → "Approved".
 */
export const HISTORY_ACTIONS: Readonly<Record<string, string>> = {
  create: 'Created',
  update: 'Edited',
  deactivate: 'Deactivated',
  activate: 'Activated',
  delete: 'Deleted',
  refund: 'Refunded',
  approve: 'Approved',
  approved: 'Approved',
  reject: 'Rejected',
  rejected: 'Rejected',
  note: 'Note added',
  invite: 'Invited',
  disable: 'Disabled',
  enable: 'Enabled',
  grant: 'Access granted',
  configure: 'Rates configured',
  schedule: 'Rate change scheduled',
  cancel: 'Rate change cancelled',
  send: 'Sent',
  start: 'Started',
  redeem: 'Redeemed',
  void: 'Voided',
  'add photo': 'Photo added',
  'claim-identity': 'Signed in for the first time',
  'relink-identity': 'Sign-in account changed',
};

/** An action in words; one the console does not know yet reads as a capitalised phrase, never "relink-identity". */
export function actionText(action: string): string {
  return HISTORY_ACTIONS[action] ?? fieldNameText(action.replace(/-/g, '_'));
}

/** Words a field name reads as when the section has not labelled it: "transaction_id" → "Transaction". */
export function fieldNameText(field: string): string {
  const words = field
    .replace(/_(id|ids|cents|at)$/, (_, suffix: string) => (suffix === 'ids' ? 's' : ''))
    .replace(/_/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
