import * as z from 'zod/mini';

/**
 * Money and percentages as a person types them, and their exact storage units: dollars and cents ↔ integer cents,
 * percent ↔ integer hundredths of a percent (basis points). Forms hold the typed text, so nothing typed is lost when
 * it is refused; the text is checked by these schemas with messages in words and converted only when it is sent.
 * No float arithmetic: the digits are split and joined as text.
 */

/** "$1,234.5", " 5 ", "12.50" — optional "$", thousands commas, at most two digits after the point. */
const DOLLARS = /^\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{0,2})?$/;
/** "8.75", "8.75 %", "100%" — at most two digits after the point. */
const PERCENT = /^(\d+)(\.\d{0,2})?\s*%?$/;

/** The text's value in hundredths (cents, basis points), or null when it does not match `pattern`. */
function hundredthsOf(text: string, pattern: RegExp): number | null {
  const trimmed = text.trim();
  if (!pattern.test(trimmed)) return null;
  const digits = trimmed.replace(/^\$\s*/, '').replace(/\s*%$/, '').replace(/,/g, '');
  const [whole = '0', fraction = ''] = digits.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** "$5" → 500, "12.5" → 1250, "1,234.56" → 123456; null when the text is not an amount of dollars and cents. */
export function dollarsToCents(text: string): number | null {
  return hundredthsOf(text, DOLLARS);
}

/** 1250 → "12.50": what a money field shows for a stored amount. */
export function centsToDollarsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "8.75" or "8.75 %" → 875 hundredths of a percent; null when the text is not a percentage. */
export function percentToBasisPoints(text: string): number | null {
  return hundredthsOf(text, PERCENT);
}

/** 875 → "8.75", 800 → "8", 850 → "8.5": what a percent field shows for a stored rate. */
export function basisPointsToPercentText(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100);
  const fraction = String(basisPoints % 100).padStart(2, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

export interface DollarsFieldOptions {
  /** What the field is called in its messages ("amount off", "price"). */
  label: string;
  /** Largest amount, in cents. */
  maxCents: number;
  /** Smallest amount, in cents (0 allows free; default 1). */
  minCents?: number;
}

/** The problem with a typed amount, in words, or null when it is fine. */
export function dollarsProblem(text: string, { label, maxCents, minCents = 1 }: DollarsFieldOptions): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return `Enter the ${label} in dollars, like 5 or 12.50.`;
  if (/^-|^\$\s*-/.test(trimmed)) return `The ${label} cannot be negative.`;
  if (/\.\d{3,}$/.test(trimmed)) return `The ${label} has at most two digits after the point (cents).`;
  const cents = dollarsToCents(trimmed);
  if (cents === null) return `Enter the ${label} in dollars, like 5 or 12.50.`;
  if (cents < minCents) return minCents === 1 ? `The ${label} must be more than $0.00.` : `The ${label} must be at least ${centsToDollarsText(minCents)}.`;
  if (cents > maxCents) return `The ${label} can be at most $${centsToDollarsText(maxCents)}.`;
  return null;
}

/** A form's money field: the typed text, checked with `dollarsProblem`'s messages. */
export function dollarsField(options: DollarsFieldOptions) {
  return z.string(`Enter the ${options.label} in dollars.`).check(
    z.refine((text) => dollarsProblem(text, options) === null, {
      error: (issue) => dollarsProblem(String(issue.input), options) ?? `Enter the ${options.label} in dollars.`,
    }),
  );
}

export interface PercentFieldOptions {
  label: string;
  /** Largest rate, in hundredths of a percent (10000 = 100 %). */
  maxBasisPoints: number;
}

/** The problem with a typed percentage, in words, or null when it is fine. */
export function percentProblem(text: string, { label, maxBasisPoints }: PercentFieldOptions): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return `Enter the ${label} as a percentage, like 8.75.`;
  if (trimmed.startsWith('-')) return `The ${label} cannot be negative.`;
  if (/\.\d{3,}\s*%?$/.test(trimmed)) return `The ${label} has at most two digits after the point.`;
  const basisPoints = percentToBasisPoints(trimmed);
  if (basisPoints === null) return `Enter the ${label} as a percentage, like 8.75.`;
  if (basisPoints > maxBasisPoints) return `The ${label} can be at most ${basisPointsToPercentText(maxBasisPoints)} %.`;
  return null;
}

/** A form's percent field: the typed text, checked with `percentProblem`'s messages. */
export function percentField(options: PercentFieldOptions) {
  return z.string(`Enter the ${options.label} as a percentage.`).check(
    z.refine((text) => percentProblem(text, options) === null, {
      error: (issue) => percentProblem(String(issue.input), options) ?? `Enter the ${options.label} as a percentage.`,
    }),
  );
}
