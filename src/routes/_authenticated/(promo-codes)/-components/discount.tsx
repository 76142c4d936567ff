import type { PromoCode } from '../../../../contract/promo-codes';
import { Money } from '../../../../ui/money';
import { discountLabel } from './promo-labels';

/** A code's discount as read on screen: "$5.00 off" (the figure never wrapped), "25 %", "60 free minutes". */
export function Discount({ code }: { code: Pick<PromoCode, 'discount_type' | 'discount_value'> }) {
  if (code.discount_type !== 'amount') return <>{discountLabel(code)}</>;
  return (
    <>
      <Money cents={code.discount_value} /> off
    </>
  );
}
