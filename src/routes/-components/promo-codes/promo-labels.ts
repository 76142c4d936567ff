import type { PromoCode } from '../../../contract/promo-codes';
import { formatMoney } from '../../../ui/format';

export const PROMO_STATE_LABELS = {
  active: 'Usable now',
  inactive: 'Deactivated',
  scheduled: 'Not yet valid',
  expired: 'Expired',
  used_up: 'Used up',
} as const;

/** "25 %", "$5.00 off", "60 free minutes". */
export function discountLabel(code: Pick<PromoCode, 'discount_type' | 'discount_value'>): string {
  if (code.discount_type === 'percent') return `${code.discount_value} %`;
  if (code.discount_type === 'amount') return `${formatMoney(code.discount_value)} off`;
  return `${code.discount_value} free minutes`;
}
