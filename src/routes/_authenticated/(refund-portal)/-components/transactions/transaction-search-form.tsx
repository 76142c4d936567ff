import { useRef, useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import { isCalendarDate, PAYMENT_STATUSES, transactionSearchSchema, type TransactionSearch } from '../../../../../contract/transactions';
import type { LocationRef } from '../../../../../permissions/permissions-object';
import { LocationFilter, SelectFilter } from '../../../../../ui/filter-form';
import { FormField } from '../../../../../ui/form-field';
import { PAYMENT_STATUS_LABELS, SEARCH_FIELD_LABELS as LABELS } from './transaction-labels';

type TextField = 'plate' | 'phone' | 'transactionId' | 'amount' | 'from' | 'to';
type Draft = Record<TextField | 'locationId' | 'status', string>;

const draftOf = (search: TransactionSearch): Draft => ({
  plate: search.plate ?? '',
  phone: search.phone ?? '',
  transactionId: search.transactionId ?? '',
  amount: search.amount ?? '',
  from: search.from ?? '',
  to: search.to ?? '',
  locationId: search.locationId ?? '',
  status: search.status ?? '',
});

type Errors = Partial<Record<keyof Draft, string>>;

/** The draft as a search, or each field's message: the contract's schema decides, as the server will. */
function checkDraft(draft: Draft): { search: TransactionSearch } | { errors: Errors } {
  const candidate = Object.fromEntries(Object.entries(draft).filter(([, value]) => value.trim() !== ''));
  const parsed = z.safeParse(transactionSearchSchema, candidate);
  const errors: Errors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof Draft | undefined;
      if (field && !errors[field]) errors[field] = `${LABELS[field]} ${issue.message}.`;
    }
  } else {
    for (const field of ['from', 'to'] as const) {
      const day = parsed.data[field];
      if (day && !isCalendarDate(day)) errors[field] = `${LABELS[field]}: ${day} is not a date.`;
    }
    const { from, to } = parsed.data;
    if (from && to && from > to && !errors.to) errors.to = `${LABELS.to} must not be before ${LABELS.from.toLowerCase()}.`;
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { search: parsed.data };
}

/**
 * The transaction search: every field optional, combined with AND. Checked with the contract's schema before the
 * URL changes, so a mistake is shown at its field instead of coming back from the server.
 */
export function TransactionSearchForm({
  search,
  locations,
  onSearch,
}: {
  search: TransactionSearch;
  locations: readonly LocationRef[];
  onSearch: (filters: TransactionSearch) => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState(() => draftOf(search));
  const [errors, setErrors] = useState<Errors>({});
  // A new URL (back, forward, "Clear filters") shows its own filters.
  const [shownSearch, setShownSearch] = useState(search);
  if (shownSearch !== search) {
    setShownSearch(search);
    setDraft(draftOf(search));
    setErrors({});
  }

  const set = (field: keyof Draft, value: string) => {
    setDraft((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    onSearch(checked.search);
  };

  const text = (field: TextField, props: { inputMode?: 'numeric' | 'decimal' | 'text'; type?: string; hint?: string; maxLength?: number }) => (
    <FormField label={LABELS[field]} hint={props.hint} error={errors[field]}>
      {(control) => (
        <input
          {...control}
          className="input"
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          autoComplete="off"
          value={draft[field]}
          onChange={(event) => set(field, event.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <form
      ref={formRef}
      role="search"
      aria-label="Search transactions" className="filter-form transaction-search" noValidate onSubmit={submit}>
      {text('plate', { hint: 'Any part, 2 characters or more', maxLength: 16 })}
      {text('phone', { inputMode: 'numeric', maxLength: 4, hint: 'e.g. 1234' })}
      {text('transactionId', { inputMode: 'numeric', maxLength: 16 })}
      {text('amount', { inputMode: 'decimal', maxLength: 11, hint: 'e.g. 12.50' })}
      {text('from', { type: 'date' })}
      {text('to', { type: 'date' })}
      <LocationFilter
        label={LABELS.locationId}
        error={errors.locationId}
        locations={locations}
        value={draft.locationId}
        onChange={(locationId) => set('locationId', locationId === undefined ? '' : String(locationId))}
      />
      <SelectFilter
        label={LABELS.status}
        error={errors.status}
        value={draft.status}
        anyLabel="Any status"
        options={PAYMENT_STATUSES}
        optionLabel={(status) => PAYMENT_STATUS_LABELS[status]}
        onChange={(status) => set('status', status ?? '')}
      />
      <div className="form-actions">
        <button type="submit" className="button primary">
          Search
        </button>
      </div>
    </form>
  );
}
