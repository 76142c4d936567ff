import { Link } from '@tanstack/react-router';
import type { AuditEntry } from '../../../../../contract/lists';
import { centsToDollarsText } from '../../../../../contract/money-text';
import type { TransactionDetail, TransactionSearch } from '../../../../../contract/transactions';
import { formatCalendarDate, formatDateTime, formatMoney, maskedPhone } from '../../../../../ui/format';
import { Money } from '../../../../../ui/money';
import type { HistoryFieldTypes } from '../../../../../ui/history-values';
import { DetailsList, RecordPage, type DetailRow } from '../../../../../ui/record-page';
import { ScrollRegion } from '../../../../../ui/scroll-region';
import { SectionPage } from '../../../../../ui/section-page';
import { AmountReasonForm } from '../refunds/amount-reason-form';
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from './transaction-labels';

/** A payment's History: the fields refund_payment (migration 015) and the seeds write. */
const HISTORY_FIELDS: Record<string, string> = {
  status: 'Status',
  refunded_amount: 'Refunded',
  refunded_cents: 'Refunded',
  refund_cents: 'Refund',
  refund_id: 'Refund number',
  ticket_id: 'Refund ticket',
  reason: 'Reason',
  settled_date: 'Settled',
  processor_reference: 'Processor reference',
};
const HISTORY_TYPES: HistoryFieldTypes = {
  status: { enum: PAYMENT_STATUS_LABELS },
  refunded_cents: 'money',
  refund_cents: 'money',
};

/** The way back to both screens of the refund portal: the search this payment was opened from, and the tickets. */
function BackToSearch({ search }: { search: TransactionSearch }) {
  return (
    <p className="back-links">
      <Link to="/refund-portal/transactions" search={search}>
        ← Back to the search
      </Link>
      <Link to="/refund-portal">Refund Tickets</Link>
    </p>
  );
}

/** A payment: where, which plate, when (in the location's zone), the money, the refunds, and its history. */
export function TransactionDetailScreen({
  record: transaction,
  history,
  search,
  onOpenTicket,
}: {
  /** The payment and its History as the route's loader gives them (`loadRecordPage`). */
  record: TransactionDetail;
  history: readonly AuditEntry[];
  search: TransactionSearch;
  /** Given with refund-portal add at the payment's location: opens a refund ticket (issue 12). */
  onOpenTicket?: ((amountCents: number, reason: string) => Promise<void>) | undefined;
}) {
  const left = transaction.amount_cents - transaction.refunded_cents;
  const zone = transaction.time_zone;
  const rows: DetailRow[] = [
    ['Location', transaction.location_name],
    ['License plate', <span className="plate-text">{transaction.license_plate}</span>],
    ['Start', formatDateTime(transaction.payment_time, zone)],
    ['Expiry', formatDateTime(transaction.expiry_date_time, zone)],
    ['Amount', <Money cents={transaction.amount_cents} />],
    ['Fee', <Money cents={transaction.fee_cents} />],
    ['Refunded', <Money cents={transaction.refunded_cents} />],
    ['Method', PAYMENT_METHOD_LABELS[transaction.payment_method]],
    ['Status', PAYMENT_STATUS_LABELS[transaction.status]],
    ['Processor reference', transaction.processor_reference ?? '—'],
    ['Settled', transaction.settled_date ? formatCalendarDate(transaction.settled_date) : 'Not settled yet'],
    ['Phone', maskedPhone(transaction.phone_last4)],
  ];
  return (
    <RecordPage
      title={`Transaction ${transaction.transaction_id}`}
      lead={<BackToSearch search={search} />}
      history={{ entries: history, timeZone: zone, fieldLabels: HISTORY_FIELDS, fieldTypes: HISTORY_TYPES }}
    >
      <DetailsList rows={rows} />
      <section aria-labelledby="refunds-title" className="refunds">
        <h2 id="refunds-title">Refunds</h2>
        {transaction.refunds.length === 0 ? (
          <p className="muted">No refunds.</p>
        ) : (
          <ScrollRegion labelledBy="refunds-title">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col" className="numeric">
                    Amount
                  </th>
                  <th scope="col">Reason</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {transaction.refunds.map((refund) => (
                  <tr key={refund.refund_id}>
                    <td>{formatDateTime(refund.created_at, zone)}</td>
                    <td className="numeric">
                      <Money cents={refund.amount_cents} />
                    </td>
                    <td>{refund.reason}</td>
                    <td>{refund.created_by ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
      {onOpenTicket && left > 0 && (
        <section aria-labelledby="open-ticket-title">
          <h2 id="open-ticket-title">Open a refund ticket</h2>
          <AmountReasonForm
            title="Open a refund ticket"
            defaultAmount={centsToDollarsText(left)}
            amountHint={`What the parker asks back; at most ${formatMoney(left)} is left to refund.`}
            max={{ cents: left, problem: `The amount is more than what is left to refund: at most ${formatMoney(left)}.` }}
            submitLabel="Open a refund ticket"
            sendingLabel="Opening…"
            onSubmit={onOpenTicket}
          />
        </section>
      )}
    </RecordPage>
  );
}

/** A missing payment and one outside the user's locations look the same: the server answers 404 for both. */
export function TransactionNotFound({ search }: { search: TransactionSearch }) {
  return (
    <SectionPage title="Transaction not found">
      <p>This transaction was not found, or it is not at one of your locations.</p>
      <BackToSearch search={search} />
    </SectionPage>
  );
}
