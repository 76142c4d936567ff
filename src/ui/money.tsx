import { formatMoney } from './format';

/**
 * An amount of money as staff read it: "$1,234.56", never broken across lines (a figure split as "$75,877. / 77"
 * reads as two numbers), digits of equal width so columns line up.
 */
export function Money({ cents, currency }: { cents: number; currency?: string }) {
  return <span className="money">{formatMoney(cents, currency)}</span>;
}
