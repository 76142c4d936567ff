import { useEffect, useState } from 'react';
import { MAX_NOTES_LENGTH, type Citation, type CitationPhoto } from '../../../../contract/citations';
import { DEFAULT_VIOLATIONS } from '../../../../contract/citations';
import type { AuditEntry } from '../../../../contract/lists';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { DateTime } from '../../../../ui/date-time';
import { FormField } from '../../../../ui/form-field';
import type { HistoryFieldTypes } from '../../../../ui/history-values';
import { Money } from '../../../../ui/money';
import { DetailsList, RecordPage } from '../../../../ui/record-page';
import { toast } from '../../../../ui/toast/toast-store';
import { useConfirmedAction } from '../../../../ui/use-confirmed-action';
import { CITATION_STATUS_LABELS } from './citation-labels';

export interface CitationActions {
  void: (reason: string, version: number) => Promise<Citation>;
  photo: (sha256: string) => Promise<Blob>;
  reload: () => Promise<void>;
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  location_id: 'Location',
  license_plate: 'Plate',
  issued_at: 'Written',
  violation: 'Violation',
  fine_cents: 'Fine',
  notes: 'Notes',
  verdict: 'Verdict seen',
  status: 'Status',
  void_reason: 'Void reason',
  photos: 'Photos',
};
const FIELD_TYPES: HistoryFieldTypes = {
  location_id: 'location',
  issued_at: 'instant',
  fine_cents: 'money',
  // History keeps the label since violations became each location's own; entries from before kept the code.
  violation: { enum: Object.fromEntries(DEFAULT_VIOLATIONS.map((violation) => [violation.code, violation.label])) },
  status: { enum: CITATION_STATUS_LABELS },
  photos: { text: (value) => (Array.isArray(value) ? `${value.length} ${value.length === 1 ? 'photo' : 'photos'}` : String(value)) },
};

/** One citation for the office: what the officer wrote and saw, its photos, Void (with a reason) and its History. */
export function CitationPage({
  citation,
  history,
  mayVoid,
  actions,
}: {
  citation: Citation;
  history: readonly AuditEntry[];
  mayVoid: boolean;
  actions: CitationActions;
}) {
  const zone = citation.time_zone;
  return (
    <RecordPage
      title={`Citation ${citation.license_plate}`}
      lead={<p className="record-lead">{CITATION_STATUS_LABELS[citation.status]} · {citation.location_name}</p>}
      history={{
        entries: history,
        timeZone: zone,
        fieldLabels: FIELD_LABELS,
        fieldTypes: FIELD_TYPES,
        locationName: (id) => (id === citation.location_id ? citation.location_name : undefined),
      }}
    >
      <DetailsList
        rows={[
          ['Plate', <span className="plate-text">{citation.license_plate}</span>],
          ['Location', citation.location_name],
          ['Written', <DateTime iso={citation.issued_at} timeZone={zone} />],
          ['Received', <DateTime iso={citation.received_at} timeZone={zone} />],
          ['Officer', citation.officer.name ? `${citation.officer.name} (${citation.officer.email})` : citation.officer.email],
          ['Violation', citation.violation_label],
          ['Fine', <Money cents={citation.fine_cents} />],
          ['Verdict seen', [citation.verdict.headline, citation.verdict.detail].filter(Boolean).join(' — ')],
          ['Notes', citation.notes || 'None'],
          ['Status', CITATION_STATUS_LABELS[citation.status]],
          ...(citation.voided_at
            ? ([
                ['Voided', <DateTime iso={citation.voided_at} timeZone={zone} />],
                ['Void reason', citation.void_reason],
              ] as const)
            : []),
        ]}
      />
      <CitationPhotos citation={citation} read={actions.photo} />
      {mayVoid && citation.status === 'issued' && <VoidCitation citation={citation} actions={actions} />}
    </RecordPage>
  );
}

/** The photos, read with the session's headers and shown from object URLs (freed when the page goes). */
function CitationPhotos({ citation, read }: { citation: Citation; read: CitationActions['photo'] }) {
  if (citation.photos.length === 0) return <p>No photos.</p>;
  return (
    <section aria-label="Photos" className="citation-photos">
      <h2>Photos</h2>
      <ul>
        {citation.photos.map((photo, index) => (
          <li key={photo.sha256}>
            <Photo photo={photo} label={`Photo ${index + 1} of ${citation.license_plate}`} read={read} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Photo({ photo, label, read }: { photo: CitationPhoto; label: string; read: CitationActions['photo'] }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    read(photo.sha256).then(
      (blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [photo.sha256, read]);
  if (failed) return <p>{label} could not be loaded.</p>;
  if (!url) return <p aria-busy="true">Loading {label.toLowerCase()}…</p>;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      <img src={url} alt={label} width={240} />
    </a>
  );
}

function VoidCitation({ citation, actions }: { citation: Citation; actions: CitationActions }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const voiding = useConfirmedAction(
    async () => {
      if (!reason.trim()) {
        setProblem('Enter the reason for voiding the citation.');
        throw new Error('Enter the reason for voiding the citation.');
      }
      await actions.void(reason, citation.version);
      toast({ title: 'Citation voided', description: citation.license_plate });
      return () => void actions.reload();
    },
    () => {
      setReason('');
      setProblem(null);
    },
  );
  return (
    <section className="record-actions" aria-label="Citation actions">
      <div className="form-actions">
        <ConfirmDialog
          {...voiding.dialog}
          trigger={
            <button type="button" className="button danger-outline">
              Void
            </button>
          }
          title={`Void the citation for ${citation.license_plate}?`}
          description={
            <>
              <p>A void citation stays in the list and its History, marked Void, with your reason.</p>
              <FormField label="Reason" error={problem}>
                {(control) => (
                  <textarea
                    className="input"
                    {...control}
                    value={reason}
                    maxLength={MAX_NOTES_LENGTH}
                    onChange={(event) => {
                      setReason(event.target.value);
                      setProblem(null);
                    }}
                  />
                )}
              </FormField>
            </>
          }
          confirmLabel="Void citation"
          busyLabel="Voiding…"
          destructive
        />
      </div>
    </section>
  );
}
