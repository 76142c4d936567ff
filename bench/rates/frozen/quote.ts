/*
 * FROZEN: src/rates/quote.ts as of commit 0667ea5, the parent of 6c7944b ("per-weekday prefix sums"), copied verbatim
 * (`git show 6c7944b^:src/rates/quote.ts`). With the three other files of this folder it is the price engine before
 * the day tables: the baseline `npm run bench:rates` divides today's engine by (issue 35, docs/benchmarks.md).
 * It must NEVER change, not even to follow a lint rule or a type: a changed baseline makes every ratio
 * measured against it incomparable with the ones before. (jscpd ignores this folder: the copy is the point.)
 */
import { prepareRateSet, type PreparedRateSet } from './prepared-rate-set';
import { MINUTES_PER_DAY, weekdayOfDay, type RateConfig, type RateSet } from './rate-set';
import { zoneOffsets, type ZoneOffsets } from './zone-offsets';

export interface QuoteLine {
  kind: 'band' | 'event' | 'daily_max' | 'grace' | 'tax';
  label: string;
  /** Increments, visits of a flat band or event, or 1. */
  quantity: number;
  unitCents: number;
  /** Negative for a daily maximum's reduction. The lines sum to the quote's amount. */
  amountCents: number;
}

export type Quote =
  | {
      ok: true;
      amountCents: number;
      /** Parking charge before tax, after daily maximums. */
      subtotalCents: number;
      taxCents: number;
      /** Minutes actually parked (UTC), whole minutes, started minutes counting. */
      minutes: number;
      increments: number;
      lines: QuoteLine[];
    }
  | { ok: false; reason: 'not_after_arrival' | 'exceeds_max_stay'; message: string };

const prepared = new WeakMap<RateSet, PreparedRateSet>();

/** The prepared tables of a rate set, built on its first quote; rate sets are treated as immutable. */
export function preparedOf(rateSet: RateSet): PreparedRateSet {
  let tables = prepared.get(rateSet);
  if (!tables) {
    tables = prepareRateSet(rateSet);
    prepared.set(rateSet, tables);
  }
  return tables;
}

/** Whole increments of a stay: every started one, or the nearest number (half up). */
export function incrementsOf(minutes: number, config: RateConfig): number {
  const increment = config.incrementMinutes;
  return config.rounding === 'up'
    ? Math.ceil(minutes / increment)
    : Math.floor((2 * minutes + increment) / (2 * increment));
}

/** Tax on a charge, rounded half up to the minor unit, in integers only. */
export function taxOf(subtotalCents: number, taxBasisPoints: number): number {
  return Math.floor((subtotalCents * taxBasisPoints + 5000) / 10_000);
}

/**
 * What a parker pays for a stay from `arrivalMs` to `departureMs` (epoch milliseconds) at a location in `timeZone`
 * (docs/rates.md "How a stay is priced"). Every started minute counts; each increment, starting at arrival, is priced
 * by the event or band in force on the local wall clock at its start; daily maximums cap each day; tax comes last.
 */
export function quote(rateSet: RateSet, config: RateConfig, arrivalMs: number, departureMs: number, timeZone: string): Quote {
  const minutes = Math.ceil((departureMs - arrivalMs) / 60_000);
  if (!(minutes > 0)) return { ok: false, reason: 'not_after_arrival', message: 'The departure must be after the arrival.' };
  if (rateSet.maxStayMinutes !== null && minutes > rateSet.maxStayMinutes) {
    return {
      ok: false,
      reason: 'exceeds_max_stay',
      message: `Stays are sold up to ${rateSet.maxStayMinutes} minutes; this one is ${minutes}.`,
    };
  }
  if (minutes <= config.graceMinutes) {
    return {
      ok: true,
      amountCents: 0,
      subtotalCents: 0,
      taxCents: 0,
      minutes,
      increments: 0,
      lines: [{ kind: 'grace', label: `Grace period (${config.graceMinutes} min)`, quantity: 1, unitCents: 0, amountCents: 0 }],
    };
  }
  const increments = incrementsOf(minutes, config);
  const tables = preparedOf(rateSet);
  const arrival = Math.floor(arrivalMs / 60_000);
  const zone = zoneOffsets(timeZone);
  const lines: QuoteLine[] = [];
  const subtotalCents =
    increments === 0 ? 0 : priceIncrements(tables, rateSet, config, zone, arrival, increments, lines);
  const taxCents = taxOf(subtotalCents, config.taxBasisPoints);
  if (taxCents > 0) {
    lines.push({ kind: 'tax', label: `Tax ${config.taxBasisPoints / 100} %`, quantity: 1, unitCents: taxCents, amountCents: taxCents });
  }
  return { ok: true, amountCents: subtotalCents + taxCents, subtotalCents, taxCents, minutes, increments, lines };
}

/**
 * The charge of `count` increments from `arrival` (UTC minute), capped per day. Walks runs of one band or event
 * between offset changes and day boundaries, counting the increments starting in each run: a long stay costs one step
 * per run, not per increment. Once a day has reached its maximum, the rest of it is skipped (docs/rates.md "Speed").
 */
function priceIncrements(
  tables: PreparedRateSet,
  rateSet: RateSet,
  config: RateConfig,
  zone: ZoneOffsets,
  arrival: number,
  count: number,
  lines: QuoteLine[],
): number {
  const increment = config.incrementMinutes;
  const lastStart = arrival + (count - 1) * increment;
  zone.cover(arrival, lastStart + 2 * MINUTES_PER_DAY);
  const { bandAt, runEnd, bandFlat, bandPrice, spanStart, spanEnd, spanEvent, eventFlat, eventPrice, bandCount, eventCount, eventCharged } = tables;
  bandCount.fill(0);
  eventCount.fill(0);
  eventCharged.fill(0);
  const spanTotal = spanStart.length;
  // First event span not ended before the wall clock; moved back only in a repeated hour.
  let span = 0;
  const dailyMax = rateSet.dailyMaxCents;
  const rolling = config.dailyMaximum === 'rolling_24h';
  tables.flatCharged = 0;
  tables.journalLength = 0;
  const cappedDays: QuoteLine[] = [];

  let zoneIndex = zone.indexAt(arrival);
  let zoneEnd = zone.endOf(zoneIndex);
  let offset = zone.offsets[zoneIndex] as number;

  let subtotal = 0;
  let daySum = 0;
  let dayCapped = false;
  let dayNumber = 1;
  // Rolling: the window's end in UTC. Calendar: the latest local day reached (a repeated hour stays in it).
  let windowEnd = arrival + MINUTES_PER_DAY;
  let calendarDay = Math.floor((arrival + offset) / MINUTES_PER_DAY);

  let next = 0;
  while (next < count) {
    const start = arrival + next * increment;
    while (start >= zoneEnd) {
      zoneIndex++;
      zoneEnd = zone.endOf(zoneIndex);
      offset = zone.offsets[zoneIndex] as number;
    }
    const local = start + offset;
    const localDay = Math.floor(local / MINUTES_PER_DAY);

    // A new day of the daily maximum closes the previous one.
    if (rolling ? start >= windowEnd : localDay > calendarDay) {
      subtotal += closeDay(tables, dailyMax, daySum, dayCapped, dayNumber++, cappedDays);
      daySum = 0;
      dayCapped = false;
      if (rolling) windowEnd = arrival + (Math.floor((start - arrival) / MINUTES_PER_DAY) + 1) * MINUTES_PER_DAY;
      else calendarDay = localDay;
    }
    const dayEnd = rolling ? windowEnd : (calendarDay + 1) * MINUTES_PER_DAY - offset;

    // A day at its maximum: the rest of it changes nothing but which visits were made. With no offset change
    // until a day after it, only the visit in progress at its last increment can be met again, so that one is noted.
    if (dailyMax !== null && daySum >= dailyMax && zoneEnd - dayEnd >= MINUTES_PER_DAY) {
      let resume = Math.ceil((dayEnd - arrival) / increment);
      if (resume > count) resume = count;
      if (resume > next) {
        const lastLocal = arrival + (resume - 1) * increment + offset;
        const lastDay = Math.floor(lastLocal / MINUTES_PER_DAY);
        while (span < spanTotal && (spanEnd[span] as number) <= lastLocal) span++;
        if (span < spanTotal && (spanStart[span] as number) <= lastLocal) {
          eventCharged[spanEvent[span] as number] = 1;
        } else {
          const lastBand = bandAt[weekdayOfDay(lastDay) * MINUTES_PER_DAY + lastLocal - lastDay * MINUTES_PER_DAY] as number;
          if (lastBand >= 0 && bandFlat[lastBand] === 1) firstVisit(tables, lastDay * 4096 + lastBand, lastDay);
        }
        dayCapped = true;
        next = resume;
        continue;
      }
    }

    let runEndUtc = zoneEnd < dayEnd ? zoneEnd : dayEnd;
    let event = -1;
    let unitEndLocal = Number.POSITIVE_INFINITY;
    if (spanTotal > 0) {
      while (span > 0 && (spanEnd[span - 1] as number) > local) span--;
      while (span < spanTotal && (spanEnd[span] as number) <= local) span++;
      if (span < spanTotal) {
        const from = spanStart[span] as number;
        if (from > local) unitEndLocal = from;
        else {
          event = spanEvent[span] as number;
          unitEndLocal = spanEnd[span] as number;
        }
      }
    }
    let band = -1;
    if (event < 0) {
      const minuteOfWeek = weekdayOfDay(localDay) * MINUTES_PER_DAY + local - localDay * MINUTES_PER_DAY;
      band = bandAt[minuteOfWeek] as number;
      const bandEnd = localDay * MINUTES_PER_DAY + (runEnd[minuteOfWeek] as number);
      if (bandEnd < unitEndLocal) unitEndLocal = bandEnd;
    }
    if (unitEndLocal - offset < runEndUtc) runEndUtc = unitEndLocal - offset;

    let after = Math.ceil((runEndUtc - arrival) / increment);
    if (after > count) after = count;
    // Every run holds the increment at `start`; this only guards the loop against a table that says otherwise.
    if (after <= next) after = next + 1;
    const inRun = after - next;

    if (event >= 0) {
      if (eventFlat[event] === 1) {
        if (eventCharged[event] === 0) {
          eventCharged[event] = 1;
          eventCount[event] = (eventCount[event] as number) + 1;
          journal(tables, -1 - event, 1);
          daySum += eventPrice[event] as number;
        }
      } else {
        eventCount[event] = (eventCount[event] as number) + inRun;
        journal(tables, -1 - event, inRun);
        daySum += inRun * (eventPrice[event] as number);
      }
    } else if (band >= 0) {
      if (bandFlat[band] === 1) {
        // A visit is (local day, band): a run split by a day window or an offset change, or revisited in the hour
        // repeated when clocks go back, is one visit.
        if (firstVisit(tables, localDay * 4096 + band, localDay)) {
          bandCount[band] = (bandCount[band] as number) + 1;
          journal(tables, band, 1);
          daySum += bandPrice[band] as number;
        }
      } else {
        bandCount[band] = (bandCount[band] as number) + inRun;
        journal(tables, band, inRun);
        daySum += inRun * (bandPrice[band] as number);
      }
    }
    next = after;
  }
  subtotal += closeDay(tables, dailyMax, daySum, dayCapped, dayNumber, cappedDays);

  // Charges of the days under their maximum (bands in the rate set's order, then events), then the capped days.
  for (let band = 0; band < bandCount.length; band++) {
    const quantity = bandCount[band] as number;
    if (quantity > 0) {
      const unit = bandPrice[band] as number;
      const label = `${tables.bandLabel[band]}${bandFlat[band] === 1 ? ' (flat)' : ''}`;
      lines.push({ kind: 'band', label, quantity, unitCents: unit, amountCents: quantity * unit });
    }
  }
  for (let event = 0; event < eventCount.length; event++) {
    const quantity = eventCount[event] as number;
    if (quantity > 0) {
      const unit = eventPrice[event] as number;
      const source = rateSet.events[tables.eventSource[event] as number];
      const label = `Event: ${source?.name ?? ''}${eventFlat[event] === 1 ? ' (flat)' : ''}`;
      lines.push({ kind: 'event', label, quantity, unitCents: unit, amountCents: quantity * unit });
    }
  }
  for (const line of cappedDays) lines.push(line);
  return subtotal;
}

/** Ends a day of the daily maximum: what it adds to the subtotal; a capped day's charges leave the lines for one line. */
function closeDay(
  tables: PreparedRateSet,
  dailyMax: number | null,
  daySum: number,
  capped: boolean,
  dayNumber: number,
  cappedDays: QuoteLine[],
): number {
  const length = tables.journalLength;
  tables.journalLength = 0;
  if (dailyMax === null || (!capped && daySum <= dailyMax)) return daySum;
  const { journalUnit, journalQuantity, bandCount, eventCount } = tables;
  for (let index = 0; index < length; index++) {
    const unit = journalUnit[index] as number;
    if (unit >= 0) bandCount[unit] = (bandCount[unit] as number) - (journalQuantity[index] as number);
    else eventCount[-1 - unit] = (eventCount[-1 - unit] as number) - (journalQuantity[index] as number);
  }
  cappedDays.push({ kind: 'daily_max', label: `Day ${dayNumber}: daily maximum`, quantity: 1, unitCents: dailyMax, amountCents: dailyMax });
  return dailyMax;
}

/** Notes a charge of the current day (unit: a band, or −1 − event). */
function journal(tables: PreparedRateSet, unit: number, quantity: number): void {
  if (tables.journalLength === tables.journalUnit.length) {
    const units = new Int32Array(tables.journalUnit.length * 2);
    const quantities = new Float64Array(tables.journalUnit.length * 2);
    units.set(tables.journalUnit);
    quantities.set(tables.journalQuantity);
    tables.journalUnit = units;
    tables.journalQuantity = quantities;
  }
  tables.journalUnit[tables.journalLength] = unit;
  tables.journalQuantity[tables.journalLength++] = quantity;
}

/** Whether the flat visit (local day, band) is new in this stay; records it when it is. */
function firstVisit(tables: PreparedRateSet, key: number, localDay: number): boolean {
  const charged = tables.chargedFlat;
  for (let index = tables.flatCharged - 1; index >= 0; index--) {
    const seen = charged[index] as number;
    if (seen === key) return false;
    // Keys only grow with the local day, bar the hour repeated when clocks go back.
    if (seen < (localDay - 1) * 4096) break;
  }
  if (tables.flatCharged === charged.length) {
    const grown = new Float64Array(charged.length * 2);
    grown.set(charged);
    tables.chargedFlat = grown;
  }
  tables.chargedFlat[tables.flatCharged++] = key;
  return true;
}
