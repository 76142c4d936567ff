import type { TicketStatus } from '../../../contract/refund-tickets';

export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  open: 'Open',
  approved: 'Approved',
  rejected: 'Rejected',
  refunded: 'Refunded',
};

/** "12.50" → 1250, exactly; the form's schema has checked the text. */
export function dollarsToCents(text: string): number {
  const [whole = '0', fraction = ''] = text.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1250 → "12.50": what a money field shows by default. */
export function centsToDollars(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
