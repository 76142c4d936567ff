import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ApiClient } from '../../../../api/client';
import { OutboxDatabase, type OutboxCitation } from '../../../../api/citation-outbox/outbox-db';
import { citationsSince, forgetUploaded, saveCitation, waitingCount, type TakenPhoto } from '../../../../api/citation-outbox/outbox';
import { startUploader } from '../../../../api/citation-outbox/uploader';
import { MAX_FINE_CENTS, MAX_NOTES_LENGTH, MAX_PHOTOS_PER_CITATION, type OfferedViolation } from '../../../../contract/citations';
import { downloadViolations, keptViolations, offeredAt } from '../../../../api/citation-outbox/violations';
import type { OutboxViolationList } from '../../../../api/citation-outbox/outbox-db';
import { centsToDollarsText, dollarsProblem, dollarsToCents } from '../../../../contract/money-text';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { FormField } from '../../../../ui/form-field';
import { formatMoney } from '../../../../ui/format';
import { compressPhoto } from './citation-photo';
import { formatInZone } from './enforcement-format';

/** What "Write citation" knows at the moment it is pressed: the plate, the verdict on screen and the location chosen. */
export interface CitationDraft {
  plate: string;
  headline: string;
  detail: string;
  /** True when the verdict lets the car stay (PAID, BOOKED…): the officer must say why in the notes. */
  needsReason: boolean;
  locationId: number | undefined;
  at: number;
}

export interface CitationDeskProps {
  api: ApiClient;
  officer: string;
  /** The locations where the officer may write citations (enforcement add). */
  locations: readonly LocationRef[];
  draft: CitationDraft | null;
  onDraftClosed: () => void;
  /** How many of the officer's citations wait for the network (the status line). */
  onWaiting: (count: number) => void;
  /** The outbox; the page's own unless a test gives one. */
  outbox?: OutboxDatabase | undefined;
  /** True when opening the enforcement store found another version and rebuilt it (StoreStatus.rebuilt). */
  storeRebuilt?: boolean | undefined;
}

const STATE_LABELS = { saved: 'Saved here', uploading: 'Uploading', uploaded: 'Uploaded', refused: 'Refused' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

let outbox: OutboxDatabase | null = null;
/** One connection per page: the outbox is opened when the desk first loads and stays open. */
const theOutbox = () => (outbox ??= new OutboxDatabase());

const startOfToday = (now: number) => {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
};

/**
 * The officer's citations on /list (issue 38), loaded at idle time so that nothing of it weighs on the plate search's
 * first load: the outbox and its uploader, "My citations today" with each one's state, and the form when "Write
 * citation" was pressed.
 */
export function CitationDesk({ api, officer, locations, draft, onDraftClosed, onWaiting, outbox: given, storeRebuilt }: CitationDeskProps) {
  const [db] = useState(() => given ?? theOutbox());
  const [today, setToday] = useState<OutboxCitation[]>([]);
  const [open, setOpen] = useState(false);
  const [lists, setLists] = useState<ReadonlyMap<number, OutboxViolationList>>(new Map());
  const [rebuildNotice, setRebuildNotice] = useState<number | null>(null);
  const rebuildTold = useRef(false);

  // A store rebuilt for this version of the console leaves the outbox alone (decision 0097): the officer is told once,
  // when it happens with citations waiting, that they are kept.
  useEffect(() => {
    if (!storeRebuilt || rebuildTold.current) return;
    rebuildTold.current = true;
    void waitingCount(db, officer).then((count) => count > 0 && setRebuildNotice(count), () => undefined);
  }, [db, officer, storeRebuilt]);
  const uploader = useRef<ReturnType<typeof startUploader> | null>(null);
  const listId = useId();

  const refresh = useCallback(async () => {
    const [mine, waiting] = await Promise.all([citationsSince(db, officer, startOfToday(Date.now())), waitingCount(db, officer)]);
    setToday(mine);
    onWaiting(waiting);
  }, [db, officer, onWaiting]);

  // The locations' violations: what the device kept at once, then downloaded afresh while online (and again whenever
  // the network comes back), so the form offers each location's own list offline too.
  useEffect(() => {
    let live = true;
    const show = () => keptViolations(db).then((kept) => live && setLists(kept), () => undefined);
    const download = () => Promise.resolve().then(() => downloadViolations(db, api)).then(show, () => undefined);
    void show().then(download);
    window.addEventListener('online', download);
    return () => {
      live = false;
      window.removeEventListener('online', download);
    };
  }, [api, db]);

  useEffect(() => {
    void forgetUploaded(db, Date.now() - 2 * DAY_MS).catch(() => undefined);
    const started = startUploader({ db, api, officer, locks: navigator.locks ?? null, onChange: () => void refresh().catch(() => undefined) });
    uploader.current = started;
    // Another tab may upload or save: look again now and then.
    const timer = setInterval(() => void refresh().catch(() => undefined), 10_000);
    void refresh().catch(() => undefined);
    return () => {
      started.stop();
      uploader.current = null;
      clearInterval(timer);
    };
  }, [api, db, officer, refresh]);

  const save = async (values: Parameters<typeof saveCitation>[2], photos: TakenPhoto[], label: string) => {
    await saveCitation(db, officer, values, photos, Date.now(), label);
    await refresh();
    uploader.current?.kick();
  };

  return (
    <div className="citation-desk">
      {rebuildNotice !== null && (
        <div role="status" className="conflict-notice store-rebuilt-notice">
          <p>
            The data on this device was rebuilt for this version of the console. Your{' '}
            {rebuildNotice === 1 ? 'citation waiting to upload is' : `${rebuildNotice} citations waiting to upload are`} kept and
            will upload as before.
          </p>
          <button type="button" className="button" onClick={() => setRebuildNotice(null)}>
            OK
          </button>
        </div>
      )}
      {draft && (
        <CitationForm
          // A new verdict's form starts afresh.
          key={draft.at}
          draft={draft}
          locations={locations}
          lists={lists}
          onSave={async (values, photos, label) => {
            await save(values, photos, label);
            onDraftClosed();
          }}
          onCancel={onDraftClosed}
        />
      )}
      {today.length > 0 && (
        <section className="my-citations" aria-label="My citations today">
          <button type="button" className="button" aria-expanded={open} aria-controls={open ? listId : undefined} onClick={() => setOpen(!open)}>
            My citations today ({today.length})
          </button>
          {open && (
            <ul id={listId}>
              {[...today].reverse().map((citation) => (
                <li key={citation.citation_id}>
                  <span className="plate-text">{citation.input.license_plate}</span> · {citation.violation_label ?? citation.input.violation} ·{' '}
                  {formatMoney(citation.input.fine_cents)} · {STATE_LABELS[citation.state]}
                  {citation.state === 'refused' && citation.problem ? `: ${citation.problem}` : ''}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}

/** The violation a verdict suggests, when the location's list has it; else the list's first. */
function suggested(violations: readonly OfferedViolation[], headline: string): OfferedViolation | undefined {
  const code = /EXPIRED|ENDED/.test(headline) ? 'expired' : 'no_payment';
  return violations.find((violation) => violation.code === code) ?? violations[0];
}
const fineText = (violation: OfferedViolation | undefined) => (violation ? centsToDollarsText(violation.fine_cents) : '');

function CitationForm({
  draft,
  locations,
  lists,
  onSave,
  onCancel,
}: {
  draft: CitationDraft;
  locations: readonly LocationRef[];
  lists: ReadonlyMap<number, OutboxViolationList>;
  onSave: (values: Parameters<typeof saveCitation>[2], photos: TakenPhoto[], label: string) => Promise<void>;
  onCancel: () => void;
}) {
  const first = useRef<HTMLInputElement>(null);
  const [plate, setPlate] = useState(draft.plate);
  const [locationId, setLocationId] = useState(
    String(locations.some((location) => location.location_id === draft.locationId) ? draft.locationId : (locations[0]?.location_id ?? '')),
  );
  const location = locations.find((candidate) => String(candidate.location_id) === locationId);
  const offered = offeredAt(lists, location?.location_id);
  // The officer's choice, or the verdict's suggestion until they choose; the fine follows the violation until typed.
  const [chosen, setChosen] = useState<string | null>(null);
  const violation = offered.violations.find((candidate) => candidate.code === chosen) ?? suggested(offered.violations, draft.headline);
  const [typedFine, setTypedFine] = useState<string | null>(null);
  const fine = typedFine ?? fineText(violation);
  const [notes, setNotes] = useState('');
  const [photos, setPhotos] = useState<TakenPhoto[]>([]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    first.current?.focus();
    first.current?.scrollIntoView?.({ block: 'center' });
  }, []);

  const addPhotos = async (files: FileList | null) => {
    const chosen = [...(files ?? [])].slice(0, MAX_PHOTOS_PER_CITATION - photos.length);
    try {
      const taken = await Promise.all(chosen.map(compressPhoto));
      setPhotos((current) => [...current, ...taken].slice(0, MAX_PHOTOS_PER_CITATION));
      setProblems(({ photos: _gone, ...rest }) => rest);
    } catch (error) {
      setProblems((current) => ({ ...current, photos: error instanceof Error ? error.message : String(error) }));
    }
  };

  const submit = async () => {
    const found: Record<string, string> = {};
    const typedPlate = plate.replace(/[\s-]/g, '').toUpperCase();
    if (!/^[A-Z0-9]{1,16}$/.test(typedPlate)) found.plate = 'Enter the plate: 1 to 16 letters or digits.';
    if (!location) found.location = 'Choose the location.';
    if (location && !violation) found.violation = 'This location has no violations to choose from: ask the office to add some.';
    const fineProblem = dollarsProblem(fine, { label: 'fine', maxCents: MAX_FINE_CENTS, minCents: 0 });
    if (fineProblem) found.fine = fineProblem;
    if (draft.needsReason && !notes.trim()) found.notes = `The verdict was ${draft.headline}: say in the notes why you write a citation.`;
    setProblems(found);
    if (Object.keys(found).length > 0 || !location || !violation) return;
    setBusy(true);
    try {
      await onSave(
        {
          location_id: location.location_id,
          license_plate: typedPlate,
          issued_at: new Date().toISOString(),
          violation: violation.code,
          fine_cents: dollarsToCents(fine)!,
          notes: notes.trim(),
          verdict: { headline: draft.headline, detail: draft.detail.slice(0, 300) },
        },
        photos,
        violation.label,
      );
    } catch (error) {
      setProblems({ form: `Not saved: ${error instanceof Error ? error.message : String(error)}` });
      setBusy(false);
    }
  };

  return (
    <section className="citation-form" aria-labelledby="citation-form-title">
      <h2 id="citation-form-title">Write citation</h2>
      <p className="muted">
        Verdict: <strong>{draft.headline}</strong> {draft.detail} · {location ? formatInZone(new Date(draft.at).toISOString(), location.time_zone) : ''}
      </p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField label="License plate" error={problems.plate}>
          {(control) => <input ref={first} className="input plate-text" {...control} value={plate} autoCapitalize="characters" onChange={(e) => setPlate(e.target.value.toUpperCase())} />}
        </FormField>
        <FormField label="Location" error={problems.location}>
          {(control) => (
            <select className="input" {...control} value={locationId} onChange={(e) => {
                setLocationId(e.target.value);
                // Another location has its own list and fines: the suggestion starts again.
                setChosen(null);
                setTypedFine(null);
              }}
            >
              {locations.map((choice) => (
                <option key={choice.location_id} value={choice.location_id}>
                  {choice.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          label="Violation"
          error={problems.violation}
          hint={offered.defaults ? 'This location’s own list has not reached this device yet: these are the usual violations and fines.' : undefined}
        >
          {(control) => (
            <select
              className="input"
              {...control}
              value={violation?.code ?? ''}
              onChange={(e) => {
                setChosen(e.target.value);
                setTypedFine(null);
              }}
            >
              {offered.violations.map((choice) => (
                <option key={choice.code} value={choice.code}>
                  {choice.label} ({formatMoney(choice.fine_cents)})
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Fine ($)" error={problems.fine}>
          {(control) => <input className="input money-input" inputMode="decimal" {...control} value={fine} onChange={(e) => setTypedFine(e.target.value)} />}
        </FormField>
        <FormField label="Notes" error={problems.notes} hint={draft.needsReason ? 'Required: the verdict lets this car stay.' : undefined}>
          {(control) => <textarea className="input" {...control} value={notes} maxLength={MAX_NOTES_LENGTH} onChange={(e) => setNotes(e.target.value)} />}
        </FormField>
        <FormField label={`Photos (${photos.length} of ${MAX_PHOTOS_PER_CITATION})`} error={problems.photos}>
          {(control) => (
            <input
              type="file"
              accept="image/*"
              capture="environment"
              multiple
              disabled={photos.length >= MAX_PHOTOS_PER_CITATION}
              {...control}
              onChange={(e) => {
                void addPhotos(e.target.files);
                e.target.value = '';
              }}
            />
          )}
        </FormField>
        {photos.length > 0 && (
          <p>
            {photos.length} {photos.length === 1 ? 'photo' : 'photos'} ready ({Math.round(photos.reduce((sum, photo) => sum + photo.bytes.byteLength, 0) / 1000)} KB).{' '}
            <button type="button" className="button" onClick={() => setPhotos([])}>
              Remove photos
            </button>
          </p>
        )}
        {problems.form && (
          <p role="alert" className="form-error">
            {problems.form}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save citation'}
          </button>
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
