import type { AuditEntry } from '../../../../contract/lists';
import { DISCOUNT_TYPES, type DiscountType, type PromoCode } from '../../../../contract/promo-codes';
import type { LocationRef } from '../../../../permissions/permissions-object';
import type { HistoryPanelProps } from '../../../../ui/history-panel';
import type { HistoryFieldTypes } from '../../../../ui/history-values';
import { DISCOUNT_TYPE_LABELS, discountLabel } from './promo-labels';

const FIELD_LABELS: Readonly<Record<string, string>> = {
  code: 'Code',
  discount_type: 'Discount type',
  discount_value: 'Discount',
  multi_use: 'Use',
  total_cap: 'Total cap',
  per_plate_cap: 'Per-plate cap',
  valid_from: 'Valid from',
  valid_to: 'Valid to',
  active: 'Active',
  location_ids: 'Locations',
};

/** A discount value with the type it had then (see `withDiscountTypes`). */
interface TypedDiscount {
  discount_type: DiscountType;
  discount_value: number;
}
const isTypedDiscount = (value: unknown): value is TypedDiscount =>
  typeof value === 'object' && value !== null && 'discount_type' in value && 'discount_value' in value;

/** How History reads each field (src/ui/history-values.ts). */
const FIELD_TYPES: HistoryFieldTypes = {
  discount_type: { enum: DISCOUNT_TYPE_LABELS },
  discount_value: { text: (value) => (isTypedDiscount(value) ? discountLabel(value) : String(value)) },
  multi_use: { yes: 'Multi use', no: 'Single use' },
  total_cap: 'count',
  per_plate_cap: 'count',
  valid_from: 'instant',
  valid_to: 'instant',
  active: { yes: 'Active', no: 'Deactivated' },
  location_ids: 'locations',
};

const asType = (value: unknown): DiscountType | null =>
  DISCOUNT_TYPES.includes(value as DiscountType) ? (value as DiscountType) : null;

/**
 * A discount value's unit is its type at the time (500 is $5.00 off or 500 free minutes), which an entry that changed
 * only the value does not hold: the entries are walked from the oldest, the type carried along, and each discount value
 * given the type it had, so History reads "$5.00 off → $7.50 off". `currentType` covers a trail cut short.
 */
export function withDiscountTypes(entries: readonly AuditEntry[], currentType: DiscountType): AuditEntry[] {
  const oldestFirst = [...entries].reverse();
  // The type before the oldest entry: what its own change says it was, else (a trail cut short) the current one.
  let type: DiscountType | null = null;
  const typed = oldestFirst.map((entry) => {
    const typeChange = entry.changes.find((change) => change.field === 'discount_type');
    const before = typeChange ? asType(typeChange.before) : type;
    const after = typeChange ? asType(typeChange.after) : type;
    type = after ?? type;
    return {
      ...entry,
      changes: entry.changes.map((change) =>
        change.field !== 'discount_value'
          ? change
          : {
              ...change,
              before: typeof change.before === 'number' ? { discount_type: before ?? currentType, discount_value: change.before } : change.before,
              after: typeof change.after === 'number' ? { discount_type: after ?? currentType, discount_value: change.after } : change.after,
            },
      ),
    };
  });
  return typed.reverse();
}

/** A promo code's History panel (RecordPage's `history`): every value in words, times on the code's clock, locations by name. */
export function promoCodeHistory(props: {
  code: PromoCode;
  history: readonly AuditEntry[];
  locations: readonly LocationRef[];
  timeZone: string;
}): HistoryPanelProps {
  return {
    entries: withDiscountTypes(props.history, props.code.discount_type),
    timeZone: props.timeZone,
    fieldLabels: FIELD_LABELS,
    fieldTypes: FIELD_TYPES,
    locationName: (id) => props.locations.find((location) => location.location_id === id)?.name,
  };
}
