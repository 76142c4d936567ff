import type { PaymentMethod, PaymentStatus } from '../../../../../contract/transactions';

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  paid: 'Paid',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
};

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Card',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  cash: 'Cash',
  account: 'Account',
};

/** The search form's fields, as the form and the "no matches" sentence name them. */
export const SEARCH_FIELD_LABELS = {
  plate: 'License plate',
  phone: 'Phone (last 4 digits)',
  transactionId: 'Transaction ID',
  amount: 'Amount',
  from: 'Paid from',
  to: 'Paid to',
  locationId: 'Location',
  status: 'Status',
} as const;
