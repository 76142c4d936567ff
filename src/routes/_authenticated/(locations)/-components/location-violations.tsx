import { useCallback, useEffect, useId, useState } from 'react';
import { fieldErrorsOf, messageOf, versionConflictOf } from '../../../../api/error-data';
import { centsToDollarsText, dollarsProblem, dollarsToCents } from '../../../../contract/money-text';
import { MAX_FINE_CENTS, MAX_VIOLATION_LABEL_LENGTH } from '../../../../contract/citations';
import type { LocationViolation, ViolationInput, ViolationUpdate } from '../../../../contract/violations';
import { FormField } from '../../../../ui/form-field';
import { formatMoney } from '../../../../ui/format';
import { PlainTable, type PlainColumn } from '../../../../ui/plain-table';
import { ScrollRegion } from '../../../../ui/scroll-region';
import { toast } from '../../../../ui/toast/toast-store';

export interface ViolationActions {
  load: () => Promise<LocationViolation[]>;
  add: (input: ViolationInput) => Promise<LocationViolation>;
  update: (code: string, change: ViolationUpdate) => Promise<LocationViolation>;
  /** Loads the location and its History again. */
  reload: () => Promise<void>;
}

/**
 * A location's violations (issue 38; decision 0097): what officers choose from when they write a citation here, with
 * the usual fine each. Location edit here adds, renames, changes fines, deactivates and activates; a violation is
 * never removed, since citations name it. Read-only without edit.
 */
export function LocationViolations({ canEdit, actions }: { canEdit: boolean; actions: ViolationActions }) {
  const headingId = useId();
  const [violations, setViolations] = useState<readonly LocationViolation[] | null>(null);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const { load } = actions;
  const refresh = useCallback(async () => {
    try {
      setViolations(await load());
      setLoadProblem(null);
    } catch (error) {
      setLoadProblem(messageOf(error));
    }
  }, [load]);
  useEffect(() => void refresh(), [refresh]);
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const being = violations?.find((violation) => violation.code === editing);

  /** Runs a change; a conflict or another failure is said above the table, and the list is read again. */
  const run = async (change: () => Promise<LocationViolation>, done: (saved: LocationViolation) => string) => {
    setProblem(null);
    try {
      const saved = await change();
      toast({ title: done(saved), description: saved.label });
      await Promise.all([refresh(), actions.reload()]);
      return null;
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields) return fields;
      const conflict = versionConflictOf(error);
      setProblem(conflict ? 'Someone changed this violation meanwhile: the list shows it as it is now. Make your change again if it is still needed.' : messageOf(error));
      if (conflict) await Promise.all([refresh(), actions.reload()]);
      return {};
    }
  };

  const columns: PlainColumn<LocationViolation>[] = [
    { header: 'Violation', cell: (violation) => violation.label, rowHeader: true },
    { header: 'Usual fine', cell: (violation) => formatMoney(violation.fine_cents), numeric: true },
    {
      header: 'Status',
      cell: (violation) => `${violation.active ? 'Active' : 'Inactive'}${violation.in_use ? ' · on citations' : ''}`,
    },
  ];
  if (canEdit) {
    columns.push({
      header: 'Actions',
      cell: (violation) => (
        <span className="row-actions">
          <button type="button" className="button" aria-label={`Edit ${violation.label}`} onClick={() => setEditing(violation.code)}>
            Edit
          </button>
          <button
            type="button"
            className="button"
            aria-label={`${violation.active ? 'Deactivate' : 'Activate'} ${violation.label}`}
            onClick={() =>
              void run(
                () => actions.update(violation.code, { label: violation.label, fine_cents: violation.fine_cents, active: !violation.active, version: violation.version }),
                (saved) => (saved.active ? 'Violation activated' : 'Violation deactivated'),
              )
            }
          >
            {violation.active ? 'Deactivate' : 'Activate'}
          </button>
        </span>
      ),
    });
  }

  return (
    <section className="location-violations" aria-labelledby={headingId}>
      <h2 id={headingId}>Violations</h2>
      <p className="form-hint">
        What officers choose from when they write a citation at this location, with the fine each one usually costs.
        {canEdit && ' A violation on citations stays on the list: deactivate it to stop offering it.'}
      </p>
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      {loadProblem && (
        <div role="alert" className="form-error">
          <p>Could not load the violations: {loadProblem}</p>
          <button type="button" className="button" onClick={() => void refresh()}>
            Retry
          </button>
        </div>
      )}
      {violations === null ? (
        !loadProblem && <p className="muted">Loading violations…</p>
      ) : (
        <ScrollRegion label="Violations and fines">
          <PlainTable columns={columns} rows={violations} rowKey={(violation) => violation.code} />
        </ScrollRegion>
      )}
      {canEdit && being && (
        <ViolationForm
          key={`${being.code}-${being.version}`}
          title={`Edit ${being.label}`}
          submitLabel="Save violation"
          initial={being}
          onCancel={() => setEditing(null)}
          onSubmit={async (input) => {
            const problems = await run(
              () => actions.update(being.code, { ...input, active: being.active, version: being.version }),
              () => 'Violation saved',
            );
            if (problems === null) setEditing(null);
            return problems;
          }}
        />
      )}
      {canEdit && violations !== null && !being && (
        <ViolationForm title="Add a violation" submitLabel="Add violation" onSubmit={(input) => run(() => actions.add(input), () => 'Violation added')} />
      )}
    </section>
  );
}

/** A violation's name and usual fine (typed in dollars): adding one, or changing one. Resolves to field problems, or null when saved. */
function ViolationForm({
  title,
  submitLabel,
  initial,
  onSubmit,
  onCancel,
}: {
  title: string;
  submitLabel: string;
  initial?: Pick<LocationViolation, 'label' | 'fine_cents'>;
  onSubmit: (input: ViolationInput) => Promise<Record<string, string> | null>;
  onCancel?: () => void;
}) {
  const headingId = useId();
  const [label, setLabel] = useState(initial?.label ?? '');
  const [fine, setFine] = useState(initial ? centsToDollarsText(initial.fine_cents) : '');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const found: Record<string, string> = {};
    if (!label.trim()) found.label = 'Enter the violation’s name.';
    const fineProblem = dollarsProblem(fine, { label: 'fine', maxCents: MAX_FINE_CENTS, minCents: 0 });
    if (fineProblem) found.fine_cents = fineProblem;
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const answer = await onSubmit({ label: label.trim(), fine_cents: dollarsToCents(fine)! });
    setBusy(false);
    if (answer === null) {
      if (!initial) {
        setLabel('');
        setFine('');
      }
      setProblems({});
    } else setProblems(answer);
  };

  return (
    <form
      className="violation-form"
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 id={headingId}>{title}</h3>
      <FormField label="Violation" error={problems.label}>
        {(control) => <input className="input" {...control} value={label} maxLength={MAX_VIOLATION_LABEL_LENGTH} onChange={(e) => setLabel(e.target.value)} />}
      </FormField>
      <FormField label="Usual fine ($)" error={problems.fine_cents}>
        {(control) => <input className="input money-input" inputMode="decimal" {...control} value={fine} onChange={(e) => setFine(e.target.value)} />}
      </FormField>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
