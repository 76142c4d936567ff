import { useForm } from '@tanstack/react-form';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { fieldErrorsOf, messageOf } from '../../../../../api/error-data';
import type { AuditEntry } from '../../../../../contract/lists';
import { centsToDollarsText } from '../../../../../contract/money-text';
import { TICKET_DECISIONS, ticketNoteInputSchema, type TicketDecision, type TicketDetail } from '../../../../../contract/refund-tickets';
import type { RefundResult } from '../../../../../contract/refunds';
import { ConfirmDialog } from '../../../../../ui/confirm-dialog';
import { formatDateTime, formatMoney } from '../../../../../ui/format';
import { TextAreaField } from '../../../../../ui/bound-fields';
import { Money } from '../../../../../ui/money';
import { DetailsList, RecordPage, type DetailRow } from '../../../../../ui/record-page';
import { PAYMENT_STATUS_LABELS } from '../transactions/transaction-labels';
import { ActNowForm, useActNow } from './act-now-form';
import { AmountReasonForm } from './amount-reason-form';
import { TICKET_HISTORY_LABELS, TICKET_HISTORY_TYPES, TICKET_STATUS_LABELS } from './ticket-labels';

export interface TicketActions {
  addNote: (body: string) => Promise<void>;
  decide: (decision: TicketDecision) => Promise<void>;
  /** Sends the refund with this confirmation's idempotency key (the same key on every retry of it). */
  refund: (amountCents: number, reason: string, idempotencyKey: string) => Promise<RefundResult>;
}

/**
 * A ticket: what was asked, its payment and earlier refunds, notes, History; actions by level
 * (docs/decisions/0076-refund-tickets.md).
 */
export function TicketDetailScreen({
  record: ticket,
  history,
  canEdit,
  actions,
}: {
  /** The ticket and its History as the route's loader gives them (`loadRecordPage`). */
  record: TicketDetail;
  history: readonly AuditEntry[];
  /** Refund-portal edit at the ticket's location: decide and refund. Notes need view only. */
  canEdit: boolean;
  actions: TicketActions;
}) {
  const zone = ticket.time_zone;
  const payment = ticket.transaction;
  const left = payment.amount_cents - payment.refunded_cents;
  const bound = refundBound(ticket);
  const rows: DetailRow[] = [
    ['Status', TICKET_STATUS_LABELS[ticket.status]],
    ['Location', ticket.location_name],
    ['Opened', formatDateTime(ticket.created_at, zone)],
    ['Requested by', ticket.requester ?? '—'],
    ['Amount asked', <Money cents={ticket.amount_requested_cents} />],
    ['Refunded from this ticket', <Money cents={ticket.refunded_cents} />],
    ['Reason', ticket.reason],
    ['Decision', ticket.decision_reason ?? '—'],
    [
      'Transaction',
      <Link to="/transactions/{-$transactionId}" params={{ transactionId: String(ticket.transaction_id) }}>
        {`Transaction ${ticket.transaction_id}`}
      </Link>,
    ],
    ['Paid', <Money cents={payment.amount_cents} />],
    ['Refunded so far', <Money cents={payment.refunded_cents} />],
    ['Left to refund', <Money cents={left} />],
    ['Payment status', PAYMENT_STATUS_LABELS[payment.status]],
  ];
  return (
    <RecordPage
      title={`Ticket ${ticket.ticket_id}`}
      lead={
        <p>
          <Link to="/refund-portal">← Back to the tickets</Link>
        </p>
      }
      history={{ entries: history, timeZone: zone, fieldLabels: TICKET_HISTORY_LABELS, fieldTypes: TICKET_HISTORY_TYPES }}
    >
      <DetailsList rows={rows} />
      <section aria-labelledby="ticket-refunds-title">
        <h2 id="ticket-refunds-title">Refunds of this transaction</h2>
        {payment.refunds.length === 0 ? (
          <p className="muted">No refunds yet.</p>
        ) : (
          <ul>
            {payment.refunds.map((refund) => (
              <li key={refund.refund_id}>
                <Money cents={refund.amount_cents} /> on {formatDateTime(refund.created_at, zone)} by {refund.created_by ?? 'the system'}:{' '}
                {refund.reason}
              </li>
            ))}
          </ul>
        )}
      </section>
      {canEdit && ticket.status === 'open' && <DecisionForm version={ticket.version} onDecide={actions.decide} />}
      {canEdit && ticket.status !== 'open' && (
        <section aria-labelledby="refund-title">
          <h2 id="refund-title">Refund</h2>
          {bound.cents > 0 ? (
            <RefundAction
              key={`${ticket.version}-${payment.refunded_cents}`}
              transactionId={ticket.transaction_id}
              bound={bound}
              onRefund={actions.refund}
            />
          ) : (
            <p>{bound.why}</p>
          )}
        </section>
      )}
      <section aria-labelledby="ticket-notes-title">
        <h2 id="ticket-notes-title">Notes</h2>
        {ticket.notes.length === 0 ? (
          <p className="muted">No notes yet.</p>
        ) : (
          <ul>
            {ticket.notes.map((note) => (
              <li key={note.note_id}>
                <strong>{note.created_by ?? 'System'}</strong>, {formatDateTime(note.created_at, zone)}: {note.body}
              </li>
            ))}
          </ul>
        )}
        <NoteForm key={ticket.notes.length} onAdd={actions.addNote} />
      </section>
    </RecordPage>
  );
}

/** How much this ticket may still refund (what it asks for less its refunds, at most what is left of the payment), and why. */
interface RefundBound {
  cents: number;
  /** Said beside the amount, or instead of the form when nothing may be refunded. */
  why: string;
  /** Said at the field when more is typed. */
  problem: string;
}

function refundBound(ticket: TicketDetail): RefundBound {
  const ticketLeft = ticket.amount_requested_cents - ticket.refunded_cents;
  const paymentLeft = ticket.transaction.amount_cents - ticket.transaction.refunded_cents;
  if (ticket.status === 'rejected') return { cents: 0, why: 'This ticket was rejected; it takes no refund.', problem: '' };
  if (ticket.status === 'refunded' || ticketLeft <= 0) {
    const why = `This ticket is refunded in full (${formatMoney(ticket.refunded_cents)}); it takes no more refunds.`;
    return { cents: 0, why, problem: '' };
  }
  if (paymentLeft <= 0) return { cents: 0, why: 'Nothing is left of the payment to refund.', problem: '' };
  if (ticketLeft <= paymentLeft) {
    return {
      cents: ticketLeft,
      why: `The ticket still asks for ${formatMoney(ticketLeft)} of the ${formatMoney(ticket.amount_requested_cents)} it asked for.`,
      problem: `The amount is more than the ticket still asks for: at most ${formatMoney(ticketLeft)}.`,
    };
  }
  return {
    cents: paymentLeft,
    why: `At most ${formatMoney(paymentLeft)} is left of the payment to refund.`,
    problem: `The amount is more than what is left of the payment: at most ${formatMoney(paymentLeft)}.`,
  };
}

interface PendingRefund {
  amountCents: number;
  reason: string;
  key: string;
  /** Ends the form's submit: with nothing when refunded or cancelled, with the failure to place at the fields. */
  settle: (failure?: unknown) => void;
}

/**
 * The refund: the form asks amount (default and most: what the ticket still asks for, at most what is left of the
 * payment) and reason, then a dialog states the amount and the transaction. Each confirmation gets one idempotency key,
 * reused if its request is retried; the confirm button waits while it runs, so a double click sends it once (and the
 * key would make a second send answer the first refund anyway).
 */
function RefundAction(props: { transactionId: number; bound: RefundBound; onRefund: TicketActions['refund'] }) {
  const [pending, setPending] = useState<PendingRefund | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Set at once (state would only change with the next render): a second click of the same tick sends nothing.
  const sending = useRef(false);
  const confirm = async () => {
    if (!pending || sending.current) return;
    sending.current = true;
    setBusy(true);
    setError(null);
    try {
      await props.onRefund(pending.amountCents, pending.reason, pending.key);
      setPending(null);
      pending.settle();
    } catch (failure) {
      // A refusal about the fields (the amount above what is left now) goes back to the form, at the field; anything
      // else stays in the dialog, whose button sends the same key again.
      if (fieldErrorsOf(failure)) {
        setPending(null);
        pending.settle(failure);
      } else {
        setError(messageOf(failure));
      }
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return (
    <>
      <AmountReasonForm
        title="Refund"
        defaultAmount={centsToDollarsText(props.bound.cents)}
        amountHint={props.bound.why}
        max={{ cents: props.bound.cents, problem: props.bound.problem }}
        submitLabel={(cents) => (cents ? `Refund ${formatMoney(cents)}…` : 'Refund…')}
        sendingLabel="Refund…"
        // The form waits while the dialog is open: a refusal at a field comes back here and is placed at it.
        onSubmit={(amountCents, reason) =>
          new Promise<void>((resolve, reject) => {
            setError(null);
            setPending({ amountCents, reason, key: crypto.randomUUID(), settle: (failure) => (failure ? reject(failure) : resolve()) });
          })
        }
      />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (open || !pending) return;
          setPending(null);
          pending.settle();
        }}
        title="Refund this payment?"
        description={
          pending && (
            <p>
              Refund <strong>{formatMoney(pending.amountCents)}</strong> of transaction <strong>{props.transactionId}</strong> to the
              parker. This cannot be undone.
            </p>
          )
        }
        confirmLabel={pending ? `Refund ${formatMoney(pending.amountCents)}` : 'Refund'}
        busyLabel="Refunding…"
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
      />
    </>
  );
}

function DecisionForm({ version, onDecide }: { version: number; onDecide: TicketActions['decide'] }) {
  const { failure, act } = useActNow();
  const form = useForm({
    defaultValues: { decision: 'approve' as TicketDecision['decision'], reason: '' },
    onSubmit: ({ value }) => act(() => onDecide({ decision: value.decision, reason: value.reason.trim(), version })),
  });
  return (
    <section aria-labelledby="decision-title">
      <h2 id="decision-title">Decision</h2>
      <ActNowForm form={form} labelledBy="decision-title" failure={failure} submitLabel="Save decision" sendingLabel="Saving…">
        {(submitted) => (
          <>
            <form.Field name="decision">
              {(field) => (
                <fieldset className="form-field">
                  <legend className="form-label">Approve or reject</legend>
                  {TICKET_DECISIONS.map((decision) => (
                    <label key={decision} className="checkbox-label">
                      <input
                        type="radio"
                        name="decision"
                        value={decision}
                        checked={field.state.value === decision}
                        onChange={() => field.handleChange(decision)}
                      />{' '}
                      {decision === 'approve' ? 'Approve' : 'Reject'}
                    </label>
                  ))}
                </fieldset>
              )}
            </form.Field>
            <form.Field
              name="reason"
              validators={{ onChange: ({ value }) => (value.trim() ? undefined : 'Give the reason for the decision.') }}
            >
              {(field) => <TextAreaField field={field} label="Reason for the decision" submitted={submitted} rows={2} maxLength={500} />}
            </form.Field>
          </>
        )}
      </ActNowForm>
    </section>
  );
}

function NoteForm({ onAdd }: { onAdd: TicketActions['addNote'] }) {
  const { failure, act } = useActNow();
  const form = useForm({
    defaultValues: { body: '' },
    validators: { onSubmit: ticketNoteInputSchema },
    onSubmit: ({ value }) => act(() => onAdd(value.body.trim())),
  });
  return (
    <ActNowForm form={form} label="Add a note" failure={failure} submitLabel="Add note" sendingLabel="Adding…" primary={false}>
      {(submitted) => (
        <form.Field name="body">
          {(field) => <TextAreaField field={field} label="New note" submitted={submitted} rows={2} maxLength={2000} />}
        </form.Field>
      )}
    </ActNowForm>
  );
}
