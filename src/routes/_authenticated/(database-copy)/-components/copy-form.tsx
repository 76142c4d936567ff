import { useEffect, useId, useState } from 'react';
import * as z from 'zod/mini';
import type { ApiClient } from '../../../../api/client';
import { getCopyCounts, startCopy } from '../../../../api/database-copy';
import {
  copyRequestSchema,
  type CopyCounts,
  type CopyOptions,
  type CopyTableName,
  type DatabaseCopy,
} from '../../../../contract/database-copy';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { CheckboxField, FormField } from '../../../../ui/form-field';
import { formatCount } from '../../../../ui/format';
import { useConfirmedAction } from '../../../../ui/use-confirmed-action';

interface CopyFormProps {
  api: ApiClient;
  choices: CopyOptions;
  /** A copy is running: starting another would be refused, so the button waits. */
  busy: boolean;
  onStarted: (copy: DatabaseCopy) => void;
}

type Counts = Partial<Record<CopyTableName, number>> | 'loading' | 'failed';

/** Rows per table of one database, loaded again whenever the database changes. */
function useCounts(api: ApiClient, database: string): Counts {
  const [counts, setCounts] = useState<Counts>('loading');
  useEffect(() => {
    if (!database) return;
    const controller = new AbortController();
    setCounts('loading');
    getCopyCounts(api, database, { signal: controller.signal }).then(
      (result: CopyCounts) => setCounts(result.counts),
      () => !controller.signal.aborted && setCounts('failed'),
    );
    return () => controller.abort();
  }, [api, database]);
  return counts;
}

const countOf = (counts: Counts, table: CopyTableName) =>
  counts === 'loading' ? '…' : counts === 'failed' ? 'unknown' : formatCount(counts[table] ?? 0);

/** Source, target, tables (with their rows at both ends), masking; then the confirmation that names the target. */
export function CopyForm({ api, choices, busy, onStarted }: CopyFormProps) {
  const { databases, tables } = choices;
  const [source, setSource] = useState(databases[0]?.name ?? '');
  const firstTarget = (from: string) => databases.find((db) => !db.production && db.name !== from)?.name ?? '';
  const [target, setTarget] = useState(() => firstTarget(databases[0]?.name ?? ''));
  const [chosen, setChosen] = useState<CopyTableName[]>([]);
  const [mask, setMask] = useState(true);
  const [typed, setTyped] = useState('');
  const sourceCounts = useCounts(api, source);
  const targetCounts = useCounts(api, target);
  const labelOf = (name: CopyTableName) => tables.find((table) => table.name === name)?.label ?? name;
  // Why the button waits, said beside it (a disabled button alone does not say what to do).
  const blockedId = useId();
  const blocked = busy
    ? 'A copy is running: start another when it has finished.'
    : !target
      ? 'Choose a target database.'
      : chosen.length === 0
        ? 'Pick at least one table to copy.'
        : null;

  // What the copy will replace: the chosen tables and those that come along with them.
  const included = tables.filter(
    (table) => chosen.includes(table.name) || tables.some((t) => chosen.includes(t.name) && t.includes.includes(table.name)),
  );
  const toggle = (name: CopyTableName, on: boolean) =>
    setChosen((current) => (on ? [...current, name] : current.filter((n) => n !== name)));

  // Replaces the target's tables: asked in the dialog, with the target's name typed (the server checks it again).
  const confirmation = useConfirmedAction(
    async () => {
      const request = z.safeParse(copyRequestSchema, { source, target, tables: chosen, mask, confirm_target: typed });
      if (!request.success) throw new Error('Choose a source, a target and at least one table.');
      const copy = await startCopy(api, request.data);
      return () => onStarted(copy);
    },
    () => setTyped(''),
  );

  return (
    <form className="panel" aria-label="New copy" onSubmit={(event) => event.preventDefault()}>
      <div className="form-row">
        <FormField label="Source">
          {(control) => (
            <select
              {...control}
              className="select"
              value={source}
              onChange={(event) => {
                setSource(event.target.value);
                if (target === event.target.value) setTarget(firstTarget(event.target.value));
              }}
            >
              {databases.map((db) => (
                <option key={db.name} value={db.name}>
                  {db.name}
                  {db.production ? ' (production)' : ''}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Target" hint="Its chosen tables are replaced. A production database is never a target.">
          {(control) => (
            <select {...control} className="select" value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="" disabled>
                Choose a target
              </option>
              {databases.map((db) => (
                <option key={db.name} value={db.name} disabled={db.production || db.name === source}>
                  {db.name}
                  {db.production ? ' (production: never a target)' : ''}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>

      <div className="table-scroll" tabIndex={0} role="region" aria-label="Tables to copy">
        <table className="data-table">
          <caption className="muted">Tables, with their rows in each database now</caption>
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Rows in {source || 'source'}</th>
              <th scope="col">Rows in {target || 'target'}</th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {tables.map((table) => {
              const comesAlong = !chosen.includes(table.name) && included.some((t) => t.name === table.name);
              const id = `copy-table-${table.name}`;
              return (
                <tr key={table.name}>
                  <td>
                    <div className="checkbox-label">
                      <input
                        id={id}
                        type="checkbox"
                        checked={chosen.includes(table.name) || comesAlong}
                        disabled={comesAlong}
                        onChange={(event) => toggle(table.name, event.target.checked)}
                      />
                      <label htmlFor={id}>{table.label}</label>
                    </div>
                  </td>
                  <td data-testid={`source-rows-${table.name}`}>{countOf(sourceCounts, table.name)}</td>
                  <td data-testid={`target-rows-${table.name}`}>{countOf(targetCounts, table.name)}</td>
                  <td className="muted">
                    {[
                      comesAlong ? 'Copied along with a table it references.' : null,
                      table.includes.length > 0 ? `Brings ${table.includes.map(labelOf).join(', ')}.` : null,
                      table.requires.length > 0 ? `Needs ${table.requires.map(labelOf).join(', ')} on the target.` : null,
                      table.masked_columns.length > 0 ? `Masks ${table.masked_columns.join(', ')}.` : null,
                    ]
                      .filter(Boolean)
                      .join(' ')}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <CheckboxField label="Mask personal data (names, phones, e-mails)" hint="Replaced by made-up values derived from each row's id.">
        {(control) => <input {...control} type="checkbox" checked={mask} onChange={(event) => setMask(event.target.checked)} />}
      </CheckboxField>

      <div className="form-actions">
        <button
          type="button"
          className="button primary"
          disabled={blocked !== null}
          aria-describedby={blocked ? blockedId : undefined}
          onClick={confirmation.show}
        >
          Copy to {target || 'target'}…
        </button>
        {blocked && (
          <p id={blockedId} className="form-hint">
            {blocked}
          </p>
        )}
      </div>

      <ConfirmDialog
        {...confirmation.dialog}
        title={`Replace tables on ${target}?`}
        description={
          <>
            <p>
              {included.map((table) => table.label).join(', ')} on <strong>{target}</strong> will be replaced by those of{' '}
              <strong>{source}</strong>
              {mask ? ', with personal data masked' : ', unmasked'}.
            </p>
            <FormField label={`Type ${target} to confirm`}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  autoComplete="off"
                  value={typed}
                  onChange={(event) => setTyped(event.target.value)}
                />
              )}
            </FormField>
          </>
        }
        confirmLabel="Replace and copy"
        busyLabel="Starting…"
        destructive
      />
    </form>
  );
}
