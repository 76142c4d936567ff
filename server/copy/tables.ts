import { COPY_TABLE_NAMES, type CopyTableName } from '../../src/contract/database-copy';

/**
 * The tables Database Copy may copy: a fixed list in code, so no SQL text ever comes from a request
 * (docs/database-copy.md). Staff accounts, roles, the audit log and the dashboards' rollups are not on it: staff and
 * roles differ per database (who may sign in to staging is staging's business), and the rollups are kept by the
 * target's own triggers (migration 006) as the payments arrive.
 */
export interface CopyTable {
  name: CopyTableName;
  label: string;
  /** Primary key: the order of batches and the key a merge matches rows on. */
  key: readonly string[];
  /** Copied tables its rows reference: they must already hold those rows on the target, or be copied too. */
  parents: readonly CopyTableName[];
  /**
   * `replace`: emptied (TRUNCATE) and loaded again; its dependants on this list come along, since their rows would
   * lose their parents. `merge` (locations): loaded into a scratch table, rows missing from the source deleted and the
   * rest upserted by key, so that what references a location that still exists (role permissions, rates, promo codes)
   * stays.
   */
  strategy: 'replace' | 'merge';
  /** Personal data: column → SQL over the source row giving the masked value. Applied when the column exists. */
  masks: Readonly<Record<string, string>>;
  /** Staff user ids (created_by, updated_by…): copied as NULL, since user ids mean other people in another database. */
  staffColumns: readonly string[];
  /** Tables outside the list that are emptied with this one (a cache of answers keyed by its rows). */
  alsoEmpties?: readonly string[];
}

const phone = (column: string, key: string) =>
  `CASE WHEN ${column} IS NULL THEN NULL ELSE '555-01' || lpad((${key} % 100)::text, 2, '0') END`;

/** In copy order: every table after the tables it references. */
export const COPY_TABLES: readonly CopyTable[] = [
  {
    name: 'locations',
    label: 'Locations',
    key: ['location_id'],
    parents: [],
    strategy: 'merge',
    masks: {},
    staffColumns: ['updated_by'],
  },
  {
    name: 'rate_configs',
    label: 'Rate settings',
    key: ['location_id'],
    parents: ['locations'],
    strategy: 'replace',
    masks: {},
    staffColumns: ['updated_by'],
  },
  {
    name: 'rate_sets',
    label: 'Rate sets',
    key: ['rate_set_id'],
    parents: ['locations'],
    strategy: 'replace',
    masks: {},
    staffColumns: ['created_by', 'cancelled_by'],
  },
  {
    name: 'bookings',
    label: 'Bookings',
    key: ['source', 'id'],
    parents: ['locations'],
    strategy: 'replace',
    masks: {},
    staffColumns: [],
  },
  {
    name: 'monthly_parkers',
    label: 'Monthly parkers',
    key: ['monthly_parker_id'],
    parents: ['locations'],
    strategy: 'replace',
    masks: {
      fname: `'Parker'`,
      lname: `parkerid::text`,
      email: `CASE WHEN email IS NULL THEN NULL ELSE 'parker-' || parkerid || '@example.invalid' END`,
      homephone: phone('homephone', 'parkerid'),
      mobilephone: phone('mobilephone', 'parkerid'),
      workphone: phone('workphone', 'parkerid'),
    },
    staffColumns: [],
  },
  {
    name: 'transactions',
    label: 'Payments',
    key: ['transaction_id'],
    parents: ['locations'],
    strategy: 'replace',
    masks: { phone_number: phone('phone_number', 'transaction_id') },
    staffColumns: [],
  },
  {
    name: 'refund_tickets',
    label: 'Refund tickets',
    key: ['ticket_id'],
    parents: ['transactions', 'locations'],
    strategy: 'replace',
    masks: {},
    staffColumns: ['created_by', 'updated_by'],
  },
  {
    name: 'refund_ticket_notes',
    label: 'Refund ticket notes',
    key: ['note_id'],
    parents: ['refund_tickets'],
    strategy: 'replace',
    masks: {},
    staffColumns: ['created_by'],
  },
  {
    name: 'refunds',
    label: 'Refunds',
    key: ['refund_id'],
    parents: ['transactions', 'refund_tickets'],
    strategy: 'replace',
    masks: {},
    staffColumns: ['created_by'],
    alsoEmpties: ['refund_idempotency_keys'],
  },
];

if (COPY_TABLES.map((table) => table.name).join() !== COPY_TABLE_NAMES.join()) {
  throw new Error('COPY_TABLES must list the contract’s COPY_TABLE_NAMES, in the same order');
}

export const copyTable = (name: CopyTableName): CopyTable => COPY_TABLES.find((table) => table.name === name)!;

/** Tables on the list that reference `name` (their rows lose their parents when it is replaced). */
export const dependantsOf = (name: CopyTableName): CopyTableName[] =>
  COPY_TABLES.filter((table) => table.parents.includes(name)).map((table) => table.name);

/**
 * What a copy of the chosen tables copies: them, and every dependant of a replaced table (recursively), in copy
 * order. A merged table (locations) keeps its dependants' rows where their location stays, so it adds none.
 */
export function copyPlan(chosen: readonly CopyTableName[]): CopyTable[] {
  const included = new Set<CopyTableName>();
  const add = (name: CopyTableName) => {
    if (included.has(name)) return;
    included.add(name);
    if (copyTable(name).strategy === 'replace') dependantsOf(name).forEach(add);
  };
  chosen.forEach(add);
  return COPY_TABLES.filter((table) => included.has(table.name));
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
