import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { fieldErrorsOf, messageOf, versionConflictOf } from '../../../../api/error-data';
import type { VersionConflict } from '../../../../contract/lists';
import type { RateChangeDetail, RateChangeInput, RateLocation } from '../../../../contract/rates';
import type { RateSet } from '../../../../rates/rate-set';
import { validate } from '../../../../rates/validate';
import { DateTimeInput } from '../../../../ui/date-time';
import { FormField } from '../../../../ui/form-field';
import { conflictAuthor, conflictWhen } from '../../../../ui/conflict-notice';
import { formatDateTime } from '../../../../ui/format';
import { MoneyInput } from '../../../../ui/money-input';
import { SectionPage } from '../../../../ui/section-page';
import { UnsavedChangesPrompt } from '../../../../ui/unsaved-changes-prompt';
import { msToWallClock, wallClockToMs } from '../../../../ui/zoned-time';
import { BandRows } from './band-rows';
import { QuotePreview } from './quote-preview';
import { EMPTY_RATE_SET, dailyMaxProblem, draftOf, expandRows, rateSetOf, rowFieldProblems, sameRateSet, type RateDraft } from './rate-draft';
import { RateLocationChoice, type RateLocationRef } from './rate-location-choice';
import { placeProblems, placeServerErrors } from './row-problems';
import { WeekGrid } from './week-grid';

/** Tomorrow 00:00 on the location's clock, as a datetime-local value: where the schedule starts. */
function tomorrowMidnight(timeZone: string, now: number): string {
  return `${msToWallClock(now + 86_400_000, timeZone).slice(0, 10)}T00:00`;
}

/** The server takes a change "now" with a minute of slack; earlier is the past. */
const SLACK_MS = 60_000;

/** Bands that can be drawn (their times read): the grid shows what it can while the rows are being typed. */
const drawable = (rateSet: RateSet): RateSet => ({
  ...rateSet,
  bands: rateSet.bands.filter((band) => Number.isFinite(band.startMinute) && Number.isFinite(band.endMinute) && band.endMinute > band.startMinute),
});

export interface RateChangeEditorProps {
  /** The locations where the user may edit rates. */
  locations: RateLocationRef[];
  /** Every location whose rates the user may view: a set may be copied from any of them. */
  copyFrom: RateLocationRef[];
  rates: RateLocation;
  /** Where the edit starts: a copied change's set, else the set in force, else none. */
  start: RateSet | null;
  now: number;
  onLocation: (locationId: number) => void;
  /** The set in force at another location (null: it has none). */
  loadRateSetOf: (locationId: number) => Promise<RateSet | null>;
  schedule: (input: RateChangeInput) => Promise<RateChangeDetail>;
  onScheduled: (change: RateChangeDetail) => void;
  /** Loads the location's rates again (after "Reload their version"). */
  reload: () => Promise<void>;
}

/**
 * The rate-set editor: the bands as rows, one band across its days, with every problem at its row; the week grid
 * beside them; the quotes of common stays before and after; and the schedule (a time on the location's clock and a
 * reason). Caught before anything is sent: a problem in the set, a set no different from the rates in force, a time
 * already past. The server checks again and answers a stale schedule with 409.
 */
export function RateChangeEditor(props: RateChangeEditorProps) {
  const { rates } = props;
  const { config, time_zone: timeZone } = rates;
  const [draft, setDraft] = useState<RateDraft>(() => draftOf(props.start ?? EMPTY_RATE_SET));
  const [dirty, setDirty] = useState(false);
  const [effective, setEffective] = useState(() => tomorrowMidnight(timeZone, props.now));
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  const version = useRef(rates.schedule_version);
  const reloadAsked = useRef(false);

  const rateSet = useMemo(() => rateSetOf(draft), [draft]);
  const problems = useMemo(() => validate(rateSet), [rateSet]);
  const { origins } = useMemo(() => expandRows(draft.rows), [draft.rows]);
  const placed = useMemo(() => placeProblems(problems, origins, draft.rows), [problems, origins, draft.rows]);
  const fieldProblemCount = draft.rows.reduce((count, row) => count + Object.keys(rowFieldProblems(row)).length, 0);
  const dailyMaxError = dailyMaxProblem(draft.dailyMax);
  const shownProblemCount =
    fieldProblemCount + (dailyMaxError ? 1 : 0) + placed.general.length + [...placed.byRow.values()].reduce((count, list) => count + list.length, 0);
  // Every `validate` problem is shown somewhere above; the count is of the sentences shown, never 0 while one remains.
  const problemCount = Math.max(shownProblemCount, problems.length > 0 ? 1 : 0);
  const inForce = rates.current?.rate_set ?? null;
  const unchanged = inForce !== null && sameRateSet(rateSet, inForce);
  const effectiveMs = wallClockToMs(effective, timeZone);
  const nowMs = Date.now();
  const effectivePast = effectiveMs !== null && effectiveMs < nowMs - SLACK_MS;

  const edit = (next: RateDraft) => {
    setDraft(next);
    setDirty(true);
    setServerErrors({});
  };

  // "Reload their version": the location's newer schedule replaces the edit, and its version becomes the base.
  useEffect(() => {
    if (rates.schedule_version === version.current || !reloadAsked.current) return;
    reloadAsked.current = false;
    version.current = rates.schedule_version;
    setDraft(draftOf((rates.next ?? rates.current)?.rate_set ?? EMPTY_RATE_SET));
    setDirty(false);
    setConflict(null);
  }, [rates]);

  const copy = async (locationId: number) => {
    setFailure(null);
    try {
      const copied = await props.loadRateSetOf(locationId);
      if (!copied) {
        setFailure('That location has no rates in force to copy.');
        return;
      }
      edit(draftOf(copied));
    } catch (error) {
      setFailure(messageOf(error));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    setConflict(null);
    if (unchanged) return;
    if (problemCount > 0) {
      setFailure(`This rate set has ${problemCount === 1 ? 'a problem' : `${problemCount} problems`} (shown at the bands); nothing was saved.`);
      return;
    }
    if (effectiveMs === null || effectiveMs < Date.now() - SLACK_MS || !reason.trim()) return;
    setBusy(true);
    try {
      const change = await props.schedule({
        rate_set: rateSet,
        effective_at: new Date(effectiveMs).toISOString(),
        reason: reason.trim(),
        schedule_version: version.current,
      });
      setDirty(false);
      props.onScheduled(change);
    } catch (error) {
      const stale = versionConflictOf(error);
      const fieldErrors = fieldErrorsOf(error);
      if (stale) setConflict(stale);
      else if (fieldErrors) setServerErrors(fieldErrors);
      else setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const effectiveError =
    serverErrors.effective_at ??
    (effectivePast
      ? `This time has passed at ${rates.name}: it is ${formatDateTime(new Date(nowMs).toISOString(), timeZone)} there. Choose a later time.`
      : submitted && effectiveMs === null
        ? 'Enter a date and time on the location’s clock.'
        : undefined);
  const reasonError = serverErrors.reason ?? (submitted && !reason.trim() ? 'Say why the rates change.' : undefined);
  // The server's `validate` sentences for a stored band (`rate_set.bands.3.endMinute`) go under the row it came from.
  const server = placeServerErrors(serverErrors, origins);
  const rowProblems = new Map(placed.byRow);
  for (const [key, messages] of server.byRow) rowProblems.set(key, [...(rowProblems.get(key) ?? []), ...messages]);
  const otherServerErrors = server.other.filter(([field]) => field !== 'effective_at' && field !== 'reason');

  return (
    <SectionPage title="Edit Rate Change">
      <UnsavedChangesPrompt isChanged={() => dirty && !busy} />
      <div className="form-row">
        <RateLocationChoice locations={props.locations} value={rates.location_id} onLocation={props.onLocation} />
        <FormField label="Start from another location’s rates">
          {(control) => (
            <select {...control} className="select" value="" onChange={(event) => event.target.value && void copy(Number(event.target.value))}>
              <option value="">Choose a location to copy…</option>
              {props.copyFrom
                .filter((location) => location.location_id !== rates.location_id)
                .map((location) => (
                  <option key={location.location_id} value={location.location_id}>
                    {location.name}
                  </option>
                ))}
            </select>
          )}
        </FormField>
      </div>
      <form className="panel" noValidate aria-label="Rate change" aria-busy={busy || undefined} onSubmit={(event) => void submit(event)}>
        <h2>Bands</h2>
        <p>
          {problemCount === 0
            ? 'No problems: every minute of the week has exactly one band.'
            : `${problemCount === 1 ? '1 problem' : `${problemCount} problems`} to fix before scheduling.`}
        </p>
        {placed.general.length > 0 && (
          <ul className="field-error" aria-label="Problems of the rate set">
            {placed.general.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        <div className="rate-editor">
          <BandRows
            rows={draft.rows}
            rowProblems={rowProblems}
            incrementMinutes={config.incrementMinutes}
            currency={config.currency}
            onChange={(rows) => edit({ ...draft, rows })}
          />
          <WeekGrid rateSet={drawable(rateSet)} incrementMinutes={config.incrementMinutes} currency={config.currency} />
        </div>
        <div className="form-row">
          <FormField label="Daily maximum" hint="Empty for none." error={dailyMaxError}>
            {(control) => <MoneyInput {...control} value={draft.dailyMax} onChange={(dailyMax) => edit({ ...draft, dailyMax })} />}
          </FormField>
          <FormField label="Longest stay (minutes, empty for none)">
            {(control) => (
              <input {...control} className="input" inputMode="numeric" value={draft.maxStayMinutes} onChange={(event) => edit({ ...draft, maxStayMinutes: event.target.value })} />
            )}
          </FormField>
        </div>
        {draft.events.length > 0 && <p>{draft.events.length === 1 ? '1 event rate is' : `${draft.events.length} event rates are`} kept as they are.</p>}
        <h2>Before and after</h2>
        <QuotePreview
          before={rates.current?.rate_set ?? null}
          after={problemCount === 0 ? rateSet : null}
          config={config}
          timeZone={timeZone}
          fromDay={effective.slice(0, 10).match(/^\d{4}-\d{2}-\d{2}$/) ? effective.slice(0, 10) : tomorrowMidnight(timeZone, props.now).slice(0, 10)}
        />
        <h2>Schedule</h2>
        <div className="form-row">
          <FormField label="Takes effect at" hint={`On the clock of ${rates.name}.`} error={effectiveError}>
            {(control) => (
              <DateTimeInput
                {...control}
                timeZone={timeZone}
                value={effective}
                onChange={(text) => {
                  setEffective(text);
                  setServerErrors(({ effective_at: _, ...others }) => others);
                }}
              />
            )}
          </FormField>
          <FormField label="Why the rates change" error={reasonError}>
            {(control) => <textarea {...control} className="input" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />}
          </FormField>
        </div>
        {conflict && (
          <div className="form-error" role="alert">
            <p>
              {conflictAuthor(conflict) ?? 'Someone else'} changed the schedule of{' '}
              {rates.name}
              {conflictWhen(conflict, timeZone)} after you opened it; nothing was saved.
            </p>
            <button
              type="button"
              className="button"
              onClick={() => {
                reloadAsked.current = true;
                void props.reload();
              }}
            >
              Reload their version
            </button>
          </div>
        )}
        {(failure || otherServerErrors.length > 0) && (
          <div className="form-error" role="alert">
            {failure && <p>{failure}</p>}
            {otherServerErrors.length > 0 && (
              <ul>
                {otherServerErrors.map(([field, message]) => (
                  <li key={field}>{message}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy || unchanged} aria-describedby={unchanged ? 'rate-change-unchanged' : undefined}>
            {busy ? 'Scheduling…' : 'Schedule change'}
          </button>
          {unchanged && (
            <p id="rate-change-unchanged" className="form-hint">
              Nothing changed from the rates in force.
            </p>
          )}
        </div>
      </form>
    </SectionPage>
  );
}
