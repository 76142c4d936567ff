import type { PaymentMethod } from '../../../../contract/transactions';
import { formatMoney } from '../../../../ui/format';

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Card',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  cash: 'Pay station cash',
  account: 'Prepaid account',
};

/** The average payment, rounded to the cent (a quotient, not a sum: the only rounding on the dashboards). */
export function averageTicket(grossCents: number, payments: number): string {
  return payments === 0 ? '–' : formatMoney(Math.round(grossCents / payments));
}

/** Active sessions against spaces, "37 %"; "–" without spaces. */
export function occupancy(active: number, capacity: number): string {
  return capacity > 0 ? `${Math.round((active / capacity) * 100)} %` : '–';
}
