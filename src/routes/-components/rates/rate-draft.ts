import { clockTime, type EventRate, type Pricing, type RateSet } from '../../../rates/rate-set';

/**
 * A rate set as the editor holds it: every field as typed, so nothing is lost or reformatted while it is being
 * typed; `rateSetOf` reads it into a rate set (a value that cannot be read becomes NaN, which `validate` names).
 */
export interface BandRow {
  /** Stable across edits, for React's keys and the row's labels. */
  key: number;
  day: number;
  start: string;
  end: string;
  pricing: Pricing;
  price: string;
}
export interface RateDraft {
  rows: BandRow[];
  dailyMax: string;
  maxStayMinutes: string;
  /** Kept as they are: the editor changes bands and maximums, not events. */
  events: EventRate[];
}

let nextKey = 1;
export const newRowKey = () => nextKey++;

const moneyText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

export function draftOf(rateSet: RateSet): RateDraft {
  return {
    rows: rateSet.bands.map((band) => ({
      key: newRowKey(),
      day: band.day,
      start: clockTime(band.startMinute),
      end: clockTime(band.endMinute),
      pricing: band.pricing,
      price: moneyText(band.priceCents),
    })),
    dailyMax: rateSet.dailyMaxCents === null ? '' : moneyText(rateSet.dailyMaxCents),
    maxStayMinutes: rateSet.maxStayMinutes === null ? '' : String(rateSet.maxStayMinutes),
    events: rateSet.events,
  };
}

/** "2.5" or "2.50" dollars → 250 cents, exactly (no float arithmetic); NaN when it is not an amount. */
export function centsOf(text: string): number {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** "08:30" → 510; "24:00" → 1440; NaN otherwise. */
export function minuteOf(text: string): number {
  const match = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!match) return Number.NaN;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return Number.NaN;
  return hours * 60 + minutes;
}

export function rateSetOf(draft: RateDraft): RateSet {
  return {
    bands: draft.rows.map((row) => ({
      day: row.day,
      startMinute: minuteOf(row.start),
      endMinute: minuteOf(row.end),
      pricing: row.pricing,
      priceCents: centsOf(row.price),
    })),
    dailyMaxCents: draft.dailyMax.trim() === '' ? null : centsOf(draft.dailyMax),
    maxStayMinutes: draft.maxStayMinutes.trim() === '' ? null : /^\s*\d{1,6}\s*$/.test(draft.maxStayMinutes) ? Number(draft.maxStayMinutes) : Number.NaN,
    events: draft.events,
  };
}

/** Where a new set starts when a location has none: every day one band, free. */
export const EMPTY_RATE_SET: RateSet = {
  bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment', priceCents: 0 })),
  dailyMaxCents: null,
  maxStayMinutes: null,
  events: [],
};
