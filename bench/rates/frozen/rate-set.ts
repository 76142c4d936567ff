/*
 * FROZEN: src/rates/rate-set.ts as of commit 0667ea5, the parent of 6c7944b ("per-weekday prefix sums"), copied verbatim
 * (`git show 6c7944b^:src/rates/rate-set.ts`). With the three other files of this folder it is the price engine before
 * the day tables: the baseline `npm run bench:rates` divides today's engine by (issue 35, docs/benchmarks.md).
 * It must NEVER change, not even to follow a lint rule or a type: a changed baseline makes every ratio
 * measured against it incomparable with the ones before. (jscpd ignores this folder: the copy is the point.)
 */
/**
 * A location's prices (docs/rates.md). Plain data shared by the console, the server and the engine: times of day are
 * minutes from local midnight, money is integer minor units (cents), weekdays run Monday (0) to Sunday (6).
 */
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const MINUTES_PER_DAY = 1440;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/** `per_increment`: the price for every started increment; `flat`: the price once per visit to the band. */
export const PRICINGS = ['per_increment', 'flat'] as const;
export type Pricing = (typeof PRICINGS)[number];

export interface RateBand {
  /** 0 = Monday … 6 = Sunday. */
  day: number;
  /** Minutes from local midnight, 0–1439. */
  startMinute: number;
  /** Minutes from local midnight, exclusive, at most 1440 (the next midnight). */
  endMinute: number;
  pricing: Pricing;
  priceCents: number;
}

/** A dated window in the location's wall-clock time ("2026-07-04T18:00") whose price replaces the bands. */
export interface EventRate {
  name: string;
  start: string;
  end: string;
  pricing: Pricing;
  priceCents: number;
}

export interface RateSet {
  bands: RateBand[];
  /** Most a stay pays per day (see `RateConfig.dailyMaximum`), or none. */
  dailyMaxCents: number | null;
  /** Longest stay sold, or none. */
  maxStayMinutes: number | null;
  events: EventRate[];
}

/** How a daily maximum counts days: 24 h windows from arrival, or the location's calendar days. */
export const DAILY_MAXIMUM_MODES = ['rolling_24h', 'calendar_day'] as const;
export type DailyMaximumMode = (typeof DAILY_MAXIMUM_MODES)[number];
/** How a stay's length becomes increments: every started increment, or the nearest whole number (half up). */
export const ROUNDINGS = ['up', 'nearest'] as const;
export type Rounding = (typeof ROUNDINGS)[number];
export const INCREMENT_CHOICES = [1, 5, 10, 15, 20, 30, 60] as const;

export interface RateConfig {
  currency: string;
  incrementMinutes: number;
  rounding: Rounding;
  /** A stay this long or shorter pays nothing. */
  graceMinutes: number;
  /** Tax on the parking charge, in hundredths of a percent (875 = 8.75 %), rounded half up to the minor unit. */
  taxBasisPoints: number;
  dailyMaximum: DailyMaximumMode;
}

/** "08:00"; 1440 reads "24:00". */
export function clockTime(minute: number): string {
  const hours = Math.floor(minute / 60);
  const minutes = minute % 60;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** "Monday 08:00–18:00". */
export function bandSpan(day: number, startMinute: number, endMinute: number): string {
  return `${WEEKDAY_NAMES[day] ?? `Day ${day}`} ${clockTime(startMinute)}–${clockTime(endMinute)}`;
}

/** "2026-07-04T18:00" as minutes of the wall clock counted like UTC (NaN when not such a time). */
export function wallClockMinute(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return Number.NaN;
  const ms = Date.UTC(year, month - 1, day, hour, minute);
  // Date.UTC rolls 31 April over into May: such a date is not a date.
  if (new Date(ms).getUTCDate() !== day) return Number.NaN;
  return ms / 60_000;
}

/** Monday = 0 of the day `localDay` days after 1970-01-01 (a Thursday). */
export function weekdayOfDay(localDay: number): number {
  return (((localDay + 3) % 7) + 7) % 7;
}
