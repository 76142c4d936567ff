import { useState } from 'react';
import * as z from 'zod/mini';
import type { ApiClient } from '../../../../api/client';
import { fieldErrorsOf, messageOf } from '../../../../api/error-data';
import { previewMailing, sendMailing, sendTestMailing } from '../../../../api/mailing';
import {
  mailingInputSchema,
  type Mailing,
  type MailingInput,
  type MailingOptions,
  type MailingPreview,
} from '../../../../contract/mailing';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { FormField } from '../../../../ui/form-field';
import { FormProblem } from '../../../../ui/form-problem';
import { formatCount } from '../../../../ui/format';
import { toast } from '../../../../ui/toast/toast-store';
import { MailingPreviewPanel } from './mailing-preview';
import { SegmentChecklist } from './segment-checklist';

interface Draft {
  subject: string;
  body: string;
  kind: 'parkers' | 'staff';
  locationIds: number[];
  parkerStatus: string;
  roleIds: number[];
}

function inputOf(draft: Draft): unknown {
  const segment =
    draft.kind === 'parkers'
      ? { kind: 'parkers', locationIds: draft.locationIds, parkerStatus: draft.parkerStatus }
      : { kind: 'staff', roleIds: draft.roleIds };
  return { subject: draft.subject, body: draft.body, segment };
}

/** The contract's messages by field ("segment.locationIds"), the same names the server's 400 uses. */
function validate(draft: Draft): { input: MailingInput } | { errors: Record<string, string> } {
  const parsed = z.safeParse(mailingInputSchema, inputOf(draft));
  if (parsed.success) return { input: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.');
    errors[field] ??= issue.message;
  }
  return { errors };
}

interface ComposeProps {
  api: ApiClient;
  options: MailingOptions;
  onSent: (mailing: Mailing) => void;
}

/** Compose, choose the segment, preview, test, send. Nothing typed is lost when a call fails. */
export function MailingCompose({ api, options, onSent }: ComposeProps) {
  const [draft, setDraft] = useState<Draft>({
    subject: '',
    body: '',
    kind: 'parkers',
    locationIds: [],
    parkerStatus: options.parkerStatuses.includes('Active') ? 'Active' : (options.parkerStatuses[0] ?? ''),
    roleIds: [],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<MailingPreview | null>(null);
  const [busy, setBusy] = useState<'preview' | 'test' | 'send' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);

  const change = (next: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setPreview(null);
    const cleared = Object.keys(next).map((key) => (key === 'subject' || key === 'body' ? key : 'segment'));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !cleared.some((c) => field.startsWith(c)))));
  };

  const checked = (): MailingInput | null => {
    const result = validate(draft);
    if ('errors' in result) {
      setErrors(result.errors);
      return null;
    }
    setErrors({});
    return result.input;
  };

  const fail = (failure: unknown) => {
    const fields = fieldErrorsOf(failure);
    if (fields) setErrors(fields);
    setProblem(fields ? null : messageOf(failure));
  };

  const runPreview = async () => {
    const input = checked();
    if (!input) return;
    setBusy('preview');
    setProblem(null);
    try {
      setPreview(await previewMailing(api, input));
    } catch (failure) {
      fail(failure);
    } finally {
      setBusy(null);
    }
  };

  const runTest = async () => {
    const result = validate(draft);
    const contentErrors = 'errors' in result ? Object.entries(result.errors).filter(([field]) => !field.startsWith('segment')) : [];
    if (contentErrors.length > 0) return setErrors(Object.fromEntries(contentErrors));
    setBusy('test');
    setProblem(null);
    try {
      const { sentTo } = await sendTestMailing(api, { subject: draft.subject.trim(), body: draft.body.trim() });
      toast({ title: 'Test sent', description: `A test message went to ${sentTo}.` });
    } catch (failure) {
      fail(failure);
    } finally {
      setBusy(null);
    }
  };

  const runSend = async () => {
    const input = checked();
    if (!input) return setConfirming(false);
    setBusy('send');
    setSendError(null);
    try {
      const mailing = await sendMailing(api, input);
      setConfirming(false);
      setPreview(null);
      toast({ title: 'Mailing queued', description: `${formatCount(mailing.recipient_count)} recipients.` });
      onSent(mailing);
    } catch (failure) {
      const fields = fieldErrorsOf(failure);
      if (fields) {
        setErrors(fields);
        setConfirming(false);
      } else setSendError(messageOf(failure));
    } finally {
      setBusy(null);
    }
  };

  const segmentError = errors['segment'] ?? errors['segment.locationIds'] ?? errors['segment.roleIds'];
  const segmentErrorId = segmentError ? 'mailing-segment-error' : undefined;
  const locationChoices = options.locations.map((location) => ({ id: location.location_id, name: location.name }));
  const roleChoices = options.roles.map((role) => ({ id: role.role_id, name: role.name }));
  return (
    <section aria-labelledby="mailing-compose-title" className="mailing-compose">
      <h2 id="mailing-compose-title">New mailing</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void runPreview();
        }}
      >
        <FormField label="Subject" error={errors['subject']}>
          {(control) => (
            <input
              {...control}
              className="input"
              value={draft.subject}
              maxLength={200}
              onChange={(event) => change({ subject: event.target.value })}
            />
          )}
        </FormField>
        <FormField
          label="Message (Markdown)"
          hint="**bold**, *italic*, [link](https://…), lists. {{first_name}} and {{last_name}} are replaced for each recipient."
          error={errors['body']}
        >
          {(control) => (
            <textarea
              {...control}
              className="input"
              rows={10}
              value={draft.body}
              onChange={(event) => change({ body: event.target.value })}
            />
          )}
        </FormField>
        <fieldset className="form-field">
          <legend className="form-label">Recipients</legend>
          <label>
            <input type="radio" name="segment-kind" checked={draft.kind === 'parkers'} onChange={() => change({ kind: 'parkers' })} />{' '}
            Monthly parkers
          </label>{' '}
          <label>
            <input type="radio" name="segment-kind" checked={draft.kind === 'staff'} onChange={() => change({ kind: 'staff' })} />{' '}
            Staff by role
          </label>
        </fieldset>
        {/* Parkers are chosen by location, staff by role: one checklist, its choices by the segment's kind. */}
        <SegmentChecklist
          errorId={segmentErrorId}
          {...(draft.kind === 'parkers'
            ? { legend: 'Locations', choices: locationChoices, chosen: draft.locationIds, onChange: (locationIds: number[]) => change({ locationIds }) }
            : { legend: 'Roles', choices: roleChoices, chosen: draft.roleIds, onChange: (roleIds: number[]) => change({ roleIds }) })}
        />
        {draft.kind === 'parkers' && (
          <FormField label="Parker status" error={errors['segment.parkerStatus']}>
            {(control) => (
              <select {...control} className="input" value={draft.parkerStatus} onChange={(event) => change({ parkerStatus: event.target.value })}>
                {options.parkerStatuses.map((status) => (
                  <option key={status} value={status}>
                    {status}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
        {segmentError && (
          <p id="mailing-segment-error" className="field-error">
            {segmentError}
          </p>
        )}
        <FormProblem message={problem} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy !== null}>
            {busy === 'preview' ? 'Previewing…' : 'Preview'}
          </button>
          <button type="button" className="button" disabled={busy !== null} onClick={() => void runTest()}>
            {busy === 'test' ? 'Sending test…' : 'Send a test to me'}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={busy !== null || preview === null || preview.recipientCount === 0}
            onClick={() => {
              setSendError(null);
              setConfirming(true);
            }}
          >
            Send…
          </button>
        </div>
        {preview === null && <p className="form-hint">Preview first: it shows who gets the message and how it looks.</p>}
      </form>
      {preview && <MailingPreviewPanel preview={preview} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Send this mailing?"
        description={
          <p>
            “{draft.subject.trim()}” goes to {formatCount(preview?.recipientCount ?? 0)} recipients. It cannot be called
            back once sent.
          </p>
        }
        confirmLabel="Send"
        busyLabel="Sending…"
        busy={busy === 'send'}
        error={sendError}
        onConfirm={() => void runSend()}
      />
    </section>
  );
}
