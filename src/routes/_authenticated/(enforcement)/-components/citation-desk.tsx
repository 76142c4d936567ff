import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ApiClient } from '../../../../api/client';
import { OutboxDatabase, type OutboxCitation } from '../../../../api/citation-outbox/outbox-db';
import { citationsSince, forgetUploaded, saveCitation, waitingCount, type TakenPhoto } from '../../../../api/citation-outbox/outbox';
import { startUploader } from '../../../../api/citation-outbox/uploader';
import { MAX_NOTES_LENGTH, MAX_PHOTOS_PER_CITATION, VIOLATIONS, violationLabel, type ViolationCode } from '../../../../contract/citations';
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
export function CitationDesk({ api, officer, locations, draft, onDraftClosed, onWaiting, outbox: given }: CitationDeskProps) {
  const [db] = useState(() => given ?? theOutbox());
  const [today, setToday] = useState<OutboxCitation[]>([]);
  const [open, setOpen] = useState(false);
  const uploader = useRef<ReturnType<typeof startUploader> | null>(null);
  const listId = useId();

  const refresh = useCallback(async () => {
    const [mine, waiting] = await Promise.all([citationsSince(db, officer, startOfToday(Date.now())), waitingCount(db, officer)]);
    setToday(mine);
    onWaiting(waiting);
  }, [db, officer, onWaiting]);

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

  const save = async (values: Parameters<typeof saveCitation>[2], photos: TakenPhoto[]) => {
    await saveCitation(db, officer, values, photos);
    await refresh();
    uploader.current?.kick();
  };

  return (
    <div className="citation-desk">
      {draft && (
        <CitationForm
          // A new verdict's form starts afresh.
          key={draft.at}
          draft={draft}
          locations={locations}
          onSave={async (values, photos) => {
            await save(values, photos);
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
                  <span className="plate-text">{citation.input.license_plate}</span> · {violationLabel(citation.input.violation)} ·{' '}
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

const defaultViolation = (headline: string): ViolationCode => (/EXPIRED|ENDED/.test(headline) ? 'expired' : 'no_payment');
const fineOf = (code: ViolationCode) => centsToDollarsText(VIOLATIONS.find((violation) => violation.code === code)!.fine_cents);

function CitationForm({
  draft,
  locations,
  onSave,
  onCancel,
}: {
  draft: CitationDraft;
  locations: readonly LocationRef[];
  onSave: (values: Parameters<typeof saveCitation>[2], photos: TakenPhoto[]) => Promise<void>;
  onCancel: () => void;
}) {
  const first = useRef<HTMLInputElement>(null);
  const [plate, setPlate] = useState(draft.plate);
  const [locationId, setLocationId] = useState(
    String(locations.some((location) => location.location_id === draft.locationId) ? draft.locationId : (locations[0]?.location_id ?? '')),
  );
  const [violation, setViolation] = useState<ViolationCode>(defaultViolation(draft.headline));
  const [fine, setFine] = useState(fineOf(violation));
  const [notes, setNotes] = useState('');
  const [photos, setPhotos] = useState<TakenPhoto[]>([]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const location = locations.find((candidate) => String(candidate.location_id) === locationId);

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
    const fineProblem = dollarsProblem(fine, { label: 'fine', maxCents: 100_000, minCents: 0 });
    if (fineProblem) found.fine = fineProblem;
    if (draft.needsReason && !notes.trim()) found.notes = `The verdict was ${draft.headline}: say in the notes why you write a citation.`;
    setProblems(found);
    if (Object.keys(found).length > 0 || !location) return;
    setBusy(true);
    try {
      await onSave(
        {
          location_id: location.location_id,
          license_plate: typedPlate,
          issued_at: new Date().toISOString(),
          violation,
          fine_cents: dollarsToCents(fine)!,
          notes: notes.trim(),
          verdict: { headline: draft.headline, detail: draft.detail.slice(0, 300) },
        },
        photos,
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
            <select className="input" {...control} value={locationId} onChange={(e) => setLocationId(e.target.value)}>
              {locations.map((choice) => (
                <option key={choice.location_id} value={choice.location_id}>
                  {choice.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Violation">
          {(control) => (
            <select
              className="input"
              {...control}
              value={violation}
              onChange={(e) => {
                const code = e.target.value as ViolationCode;
                setViolation(code);
                setFine(fineOf(code));
              }}
            >
              {VIOLATIONS.map((choice) => (
                <option key={choice.code} value={choice.code}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Fine ($)" error={problems.fine}>
          {(control) => <input className="input money-input" inputMode="decimal" {...control} value={fine} onChange={(e) => setFine(e.target.value)} />}
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
