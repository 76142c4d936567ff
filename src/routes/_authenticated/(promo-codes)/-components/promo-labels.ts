import type { DiscountType, PromoCode } from '../../../../contract/promo-codes';
import { formatMoney } from '../../../../ui/format';

export const PROMO_STATE_LABELS = {
  active: 'Usable now',
  inactive: 'Deactivated',
  scheduled: 'Not yet valid',
  expired: 'Expired',
  used_up: 'Used up',
} as const;

/** The kinds of discount as the form's choice and the History name them. */
export const DISCOUNT_TYPE_LABELS: Readonly<Record<DiscountType, string>> = {
  percent: 'Percent off',
  amount: 'Amount off',
  minutes: 'Free minutes',
};

/** "25 %", "$5.00 off", "60 free minutes". */
export function discountLabel(code: Pick<PromoCode, 'discount_type' | 'discount_value'>): string {
  if (code.discount_type === 'percent') return `${code.discount_value} %`;
  if (code.discount_type === 'amount') return `${formatMoney(code.discount_value)} off`;
  return `${code.discount_value} free minutes`;
}
