import { MINUTES_PER_DAY, WEEKDAY_NAMES, bandSpan, clockTime, wallClockMinute, type RateSet } from './rate-set';

export type RateProblemKind =
  | 'gap'
  | 'overlap'
  | 'past_midnight'
  | 'bad_day'
  | 'bad_time'
  | 'negative_price'
  | 'bad_price'
  | 'max_below_band'
  | 'bad_maximum'
  | 'bad_max_stay'
  | 'event'
  | 'event_overlap'
  | 'too_many';

export interface RateProblem {
  kind: RateProblemKind;
  /** Where in the rate set: `bands.3.priceCents`, `events.0.end`, `dailyMaxCents`, or `bands` for a day's gap. */
  path: string;
  /** The band the problem belongs to (a gap: the band before it, else after it), when there is one. */
  band?: number;
  /** The other band of an overlap. */
  otherBand?: number;
  event?: number;
  day?: number;
  startMinute?: number;
  endMinute?: number;
  message: string;
}

export const MAX_BANDS = 700;
export const MAX_EVENTS = 200;
export const MAX_PRICE_CENTS = 100_000_000;

const amount = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const wholeCents = (value: number) => Number.isInteger(value) && value >= 0 && value <= MAX_PRICE_CENTS;

/**
 * Every problem of a rate set, with its day and hour (docs/rates.md "What validate checks"). A rate set is valid when
 * the list is empty: then its well-formed bands cover each day of the week exactly once.
 */
export function validate(rateSet: RateSet): RateProblem[] {
  const problems: RateProblem[] = [];
  const { bands, events, dailyMaxCents, maxStayMinutes } = rateSet;
  if (bands.length > MAX_BANDS) {
    problems.push({ kind: 'too_many', path: 'bands', message: `A rate set has at most ${MAX_BANDS} bands.` });
    return problems;
  }
  if (events.length > MAX_EVENTS) {
    problems.push({ kind: 'too_many', path: 'events', message: `A rate set has at most ${MAX_EVENTS} events.` });
    return problems;
  }
  const maxKnown = dailyMaxCents !== null && wholeCents(dailyMaxCents);
  if (dailyMaxCents !== null && !maxKnown) {
    problems.push({
      kind: 'bad_maximum',
      path: 'dailyMaxCents',
      message: 'The daily maximum must be a whole number of cents, zero or more.',
    });
  }
  if (maxStayMinutes !== null && !(Number.isInteger(maxStayMinutes) && maxStayMinutes > 0 && maxStayMinutes <= 366 * MINUTES_PER_DAY)) {
    problems.push({
      kind: 'bad_max_stay',
      path: 'maxStayMinutes',
      message: 'The maximum stay must be a whole number of minutes from 1 to 527,040 (366 days).',
    });
  }

  const wellFormed: number[][] = [[], [], [], [], [], [], []];
  bands.forEach((band, index) => {
    const where = `bands.${index}`;
    const { day, startMinute: start, endMinute: end } = band;
    if (!Number.isInteger(day) || day < 0 || day > 6) {
      problems.push({ kind: 'bad_day', path: `${where}.day`, band: index, message: `Band ${index + 1}: the day must be Monday to Sunday.` });
      return;
    }
    const name = WEEKDAY_NAMES[day];
    let formed = true;
    if (!Number.isInteger(start) || start < 0 || start >= MINUTES_PER_DAY) {
      problems.push({ kind: 'bad_time', path: `${where}.startMinute`, band: index, day, message: `${name}, band ${index + 1}: the start must be a time from 00:00 to 23:59.` });
      formed = false;
    }
    if (!Number.isInteger(end) || end <= 0) {
      problems.push({ kind: 'bad_time', path: `${where}.endMinute`, band: index, day, message: `${name}, band ${index + 1}: the end must be a time from 00:01 to 24:00.` });
      formed = false;
    } else if (formed && (end > MINUTES_PER_DAY || end <= start)) {
      const shownEnd = end > MINUTES_PER_DAY ? end - MINUTES_PER_DAY : end;
      problems.push({
        kind: 'past_midnight',
        path: `${where}.endMinute`,
        band: index,
        day,
        startMinute: start,
        endMinute: end,
        message: `${name} ${clockTime(start)}–${clockTime(shownEnd)}: a band must end by midnight (24:00); split it into two bands, one on each day.`,
      });
      formed = false;
    }
    if (!Number.isInteger(band.priceCents) || band.priceCents > MAX_PRICE_CENTS) {
      problems.push({ kind: 'bad_price', path: `${where}.priceCents`, band: index, day, message: `${bandSpan(day, start, end)}: the price must be a whole number of cents up to 1,000,000.00.` });
    } else if (band.priceCents < 0) {
      problems.push({ kind: 'negative_price', path: `${where}.priceCents`, band: index, day, message: `${bandSpan(day, start, end)}: the price is below zero.` });
    } else if (maxKnown && band.priceCents > (dailyMaxCents as number)) {
      problems.push({
        kind: 'max_below_band',
        path: `${where}.priceCents`,
        band: index,
        day,
        message: `${bandSpan(day, start, end)}: the daily maximum (${amount(dailyMaxCents as number)}) is below this band's price (${amount(band.priceCents)}${band.pricing === 'flat' ? '' : ' per increment'}).`,
      });
    }
    if (formed) wellFormed[day]!.push(index);
  });

  wellFormed.forEach((indexes, day) => coverageProblems(rateSet, day, indexes, problems));

  const eventSpans: { index: number; start: number; end: number }[] = [];
  events.forEach((event, index) => {
    const where = `events.${index}`;
    const label = event.name.trim() === '' ? `Event ${index + 1}` : `Event "${event.name.trim()}"`;
    if (event.name.trim() === '' || event.name.length > 80) {
      problems.push({ kind: 'event', path: `${where}.name`, event: index, message: `Event ${index + 1}: enter a name of at most 80 characters.` });
    }
    const start = wallClockMinute(event.start);
    const end = wallClockMinute(event.end);
    if (Number.isNaN(start)) problems.push({ kind: 'event', path: `${where}.start`, event: index, message: `${label}: the start must be a date and time.` });
    if (Number.isNaN(end)) problems.push({ kind: 'event', path: `${where}.end`, event: index, message: `${label}: the end must be a date and time.` });
    else if (!Number.isNaN(start) && end <= start) {
      problems.push({ kind: 'event', path: `${where}.end`, event: index, message: `${label}: the end must be after the start.` });
    } else if (!Number.isNaN(start)) eventSpans.push({ index, start, end });
    if (!Number.isInteger(event.priceCents) || event.priceCents > MAX_PRICE_CENTS) {
      problems.push({ kind: 'bad_price', path: `${where}.priceCents`, event: index, message: `${label}: the price must be a whole number of cents up to 1,000,000.00.` });
    } else if (event.priceCents < 0) {
      problems.push({ kind: 'negative_price', path: `${where}.priceCents`, event: index, message: `${label}: the price is below zero.` });
    } else if (maxKnown && event.priceCents > (dailyMaxCents as number)) {
      problems.push({
        kind: 'max_below_band',
        path: `${where}.priceCents`,
        event: index,
        message: `${label}: the daily maximum (${amount(dailyMaxCents as number)}) is below this event's price (${amount(event.priceCents)}).`,
      });
    }
  });
  eventSpans.sort((a, b) => a.start - b.start);
  for (let i = 0; i < eventSpans.length; i++) {
    for (let j = i + 1; j < eventSpans.length && eventSpans[j]!.start < eventSpans[i]!.end; j++) {
      const [first, second] = [eventSpans[i]!, eventSpans[j]!].sort((a, b) => a.index - b.index) as [typeof eventSpans[0], typeof eventSpans[0]];
      problems.push({
        kind: 'event_overlap',
        path: `events.${second.index}.start`,
        event: second.index,
        message: `Events ${first.index + 1} and ${second.index + 1} overlap; one event applies at a time.`,
      });
    }
  }
  return problems;
}

/** Gaps and overlaps of one day's well-formed bands, each as one span with the bands it concerns. */
function coverageProblems(rateSet: RateSet, day: number, indexes: number[], problems: RateProblem[]): void {
  const name = WEEKDAY_NAMES[day];
  const sorted = [...indexes].sort((a, b) => rateSet.bands[a]!.startMinute - rateSet.bands[b]!.startMinute || a - b);
  let coveredTo = 0;
  let lastBand: number | undefined;
  for (const index of sorted) {
    const { startMinute: start, endMinute: end } = rateSet.bands[index]!;
    if (start > coveredTo) {
      problems.push(lastBand === undefined ? gap(day, coveredTo, start, index, 'startMinute') : gap(day, coveredTo, start, lastBand, 'endMinute'));
    }
    if (end > coveredTo) {
      coveredTo = end;
      lastBand = index;
    }
  }
  if (coveredTo < MINUTES_PER_DAY) {
    problems.push(
      sorted.length === 0
        ? { kind: 'gap', path: 'bands', day, startMinute: 0, endMinute: MINUTES_PER_DAY, message: `${name} 00:00–24:00: no band covers this day.` }
        : gap(day, coveredTo, MINUTES_PER_DAY, lastBand as number, 'endMinute'),
    );
  }
  for (let i = 0; i < sorted.length; i++) {
    const first = rateSet.bands[sorted[i]!]!;
    for (let j = i + 1; j < sorted.length; j++) {
      const second = rateSet.bands[sorted[j]!]!;
      if (second.startMinute >= first.endMinute) break;
      const [earlier, later] = sorted[i]! < sorted[j]! ? [sorted[i]!, sorted[j]!] : [sorted[j]!, sorted[i]!];
      const start = second.startMinute;
      const end = Math.min(first.endMinute, second.endMinute);
      problems.push({
        kind: 'overlap',
        path: `bands.${later}.startMinute`,
        band: later,
        otherBand: earlier,
        day,
        startMinute: start,
        endMinute: end,
        message: `${name} ${clockTime(start)}–${clockTime(end)}: bands ${earlier + 1} and ${later + 1} overlap; one band applies at a time.`,
      });
    }
  }
}

function gap(day: number, start: number, end: number, band: number, field: 'startMinute' | 'endMinute'): RateProblem {
  return {
    kind: 'gap',
    path: `bands.${band}.${field}`,
    band,
    day,
    startMinute: start,
    endMinute: end,
    message: `${WEEKDAY_NAMES[day]} ${clockTime(start)}–${clockTime(end)}: no band covers this time.`,
  };
}
