import type { TicketStatus } from '../../../../../contract/refund-tickets';
import type { HistoryFieldTypes } from '../../../../../ui/history-values';

export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  open: 'Open',
  approved: 'Approved',
  rejected: 'Rejected',
  refunded: 'Refunded',
};

/** A ticket's History: the fields server/db/refund-tickets.ts and refund_payment (migration 015) write. */
export const TICKET_HISTORY_LABELS: Readonly<Record<string, string>> = {
  status: 'Status',
  decision_reason: 'Decision',
  note: 'Note',
  amount_requested_cents: 'Amount asked',
  reason: 'Reason',
  transaction_id: 'Transaction',
};
export const TICKET_HISTORY_TYPES: HistoryFieldTypes = {
  status: { enum: TICKET_STATUS_LABELS },
  amount_requested_cents: 'money',
};
