import { chargeBefore, countSegment, dayTableOf, startsBefore, type DayTable } from './day-tables';
import { prepareRateSet, runOf, type PreparedRateSet } from './prepared-rate-set';
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

let lastTaxBasisPoints = Number.NaN;
let lastTaxLabel = '';
/** "Tax 10.25 %", kept for the next quote (a location's rate rarely changes between quotes). */
function taxLabel(basisPoints: number): string {
  if (basisPoints !== lastTaxBasisPoints) {
    lastTaxBasisPoints = basisPoints;
    lastTaxLabel = `Tax ${basisPoints / 100} %`;
  }
  return lastTaxLabel;
}

const dayLabels: string[] = [];
/** "Day 3: daily maximum", built once per day number. */
function dailyMaxLabel(dayNumber: number): string {
  let label = dayLabels[dayNumber];
  if (label === undefined) {
    label = `Day ${dayNumber}: daily maximum`;
    dayLabels[dayNumber] = label;
  }
  return label;
}

/**
 * What a parker pays for a stay from `arrivalMs` to `departureMs` (epoch milliseconds) at a location in `timeZone`
 * (docs/rates.md "How a stay is priced"). Every started minute counts; each increment, starting at arrival, is priced
 * by the event or band in force on the local wall clock at its start; daily maximums cap each day; tax comes last.
 */
export function quote(rateSet: RateSet, config: RateConfig, arrivalMs: number, departureMs: number, timeZone: string): Quote {
  return quoteWith(rateSet, config, arrivalMs, departureMs, timeZone, true);
}

/**
 * The same quote priced by walking every run, without the day tables: the reference the day tables are tested against
 * (`src/rates/day-tables.test.ts`), kept because it is the plainest statement of the rules the fast path must meet.
 */
export function walkedQuote(rateSet: RateSet, config: RateConfig, arrivalMs: number, departureMs: number, timeZone: string): Quote {
  return quoteWith(rateSet, config, arrivalMs, departureMs, timeZone, false);
}

function quoteWith(
  rateSet: RateSet,
  config: RateConfig,
  arrivalMs: number,
  departureMs: number,
  timeZone: string,
  useDayTables: boolean,
): Quote {
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
    increments === 0 ? 0 : priceIncrements(tables, rateSet, config, zone, arrival, increments, lines, useDayTables);
  const taxCents = taxOf(subtotalCents, config.taxBasisPoints);
  if (taxCents > 0) {
    lines.push({ kind: 'tax', label: taxLabel(config.taxBasisPoints), quantity: 1, unitCents: taxCents, amountCents: taxCents });
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
  useDayTables: boolean,
): number {
  const increment = config.incrementMinutes;
  // The day tables need a whole number of minutes per increment (the segment key holds phases below 60).
  const dayTable: DayTable | null =
    useDayTables && tables.dayTablesUsable && Number.isInteger(increment) && increment <= 60
      ? dayTableOf(tables, increment)
      : null;
  const lastStart = arrival + (count - 1) * increment;
  zone.cover(arrival, lastStart + 2 * MINUTES_PER_DAY);
  const { runBand, runFrom, runTo, bandFlat, bandPrice, spanStart, spanEnd, spanEvent, eventFlat, eventPrice, bandCount, eventCount, eventCharged } = tables;
  // Counts left by a quote that did not finish are cleared; until this one's lines clear its own, all may be dirty.
  if (tables.touchedHigh >= 0) bandCount.fill(0);
  tables.touchedLow = 0;
  tables.touchedHigh = bandCount.length - 1;
  let touchedLow = bandCount.length;
  let touchedHigh = -1;
  if (tables.eventsTouched) {
    eventCount.fill(0);
    eventCharged.fill(0);
  }
  tables.eventsTouched = eventCount.length > 0;
  const spanTotal = spanStart.length;
  // First event span not ended before the wall clock; moved back only in a repeated hour.
  let span = 0;
  const dailyMax = rateSet.dailyMaxCents;
  const rolling = config.dailyMaximum === 'rolling_24h';
  tables.flatCharged = 0;
  tables.journalLength = 0;
  tables.pendingLength = 0;
  tables.segmentLength = 0;
  tables.cappedLength = 0;

  let zoneIndex = zone.indexAt(arrival);
  let zoneEnd = zone.endOf(zoneIndex);
  let offset = zone.offsets[zoneIndex] as number;
  // The first local day whose increments so far were all of this stay, at this offset (the day tables' condition):
  // its midnight is at or after the arrival and every wall-clock time read before this offset took effect.
  let cleanDay = Math.ceil((arrival + offset) / MINUTES_PER_DAY);

  let subtotal = 0;
  let daySum = 0;
  let dayNumber = 1;
  // Rolling: the window's end in UTC. Calendar: the latest local day reached (a repeated hour stays in it).
  let windowEnd = arrival + MINUTES_PER_DAY;
  let calendarDay = Math.floor((arrival + offset) / MINUTES_PER_DAY);

  let next = 0;
  while (next < count) {
    const start = arrival + next * increment;
    while (start >= zoneEnd) {
      const before = offset;
      const changedAt = zoneEnd;
      zoneIndex++;
      zoneEnd = zone.endOf(zoneIndex);
      offset = zone.offsets[zoneIndex] as number;
      cleanDay = Math.ceil((changedAt + (offset > before ? offset : before)) / MINUTES_PER_DAY);
    }
    const local = start + offset;
    const localDay = Math.floor(local / MINUTES_PER_DAY);

    // A new day of the daily maximum closes the previous one.
    if (rolling ? start >= windowEnd : localDay > calendarDay) {
      subtotal += closeDay(tables, dailyMax, daySum, dayNumber++);
      daySum = 0;
      if (rolling) windowEnd = arrival + (Math.floor((start - arrival) / MINUTES_PER_DAY) + 1) * MINUTES_PER_DAY;
      else calendarDay = localDay;
    }
    const dayEnd = rolling ? windowEnd : (calendarDay + 1) * MINUTES_PER_DAY - offset;

    // A day at its maximum: the rest of it changes nothing but which visits were made. With no offset change
    // until a day after it, only the visit in progress at its last increment can be met again, so that one is noted.
    // Not when an event is in progress there: the flat band it interrupted may have been visited earlier in the
    // skipped part of that local day and go on after the event (one visit), or not (a new one); walked instead.
    if (dailyMax !== null && daySum >= dailyMax && zoneEnd - dayEnd >= MINUTES_PER_DAY) {
      let resume = Math.ceil((dayEnd - arrival) / increment);
      if (resume > count) resume = count;
      if (resume > next) {
        const lastLocal = arrival + (resume - 1) * increment + offset;
        let lastSpan = span;
        while (lastSpan < spanTotal && (spanEnd[lastSpan] as number) <= lastLocal) lastSpan++;
        if (lastSpan === spanTotal || (spanStart[lastSpan] as number) > lastLocal) {
          span = lastSpan;
          const lastDay = Math.floor(lastLocal / MINUTES_PER_DAY);
          const lastBand = runBand[runOf(tables, weekdayOfDay(lastDay), lastLocal - lastDay * MINUTES_PER_DAY)] as number;
          if (lastBand >= 0 && bandFlat[lastBand] === 1) firstVisit(tables, lastDay * 4096 + lastBand, lastDay);
          next = resume;
          continue;
        }
      }
    }

    if (spanTotal > 0) {
      while (span > 0 && (spanEnd[span - 1] as number) > local) span--;
      while (span < spanTotal && (spanEnd[span] as number) <= local) span++;
    }

    // A stretch of a local day up to the next boundary, priced from the day tables in two lookups, when no event is in
    // it, nothing can come back to it after an offset change, and the day is either clean (all its increments so far
    // were this stay's, at this offset, with no event) or untouched (this is the stay's first increment).
    const midnight = localDay * MINUTES_PER_DAY;
    const clean = localDay >= cleanDay && (span === 0 || (spanEnd[span - 1] as number) <= midnight);
    // The stretch's end (minute of the day) when the day tables price it, else 0.
    let stretchTo = 0;
    if (
      dayTable !== null &&
      (clean || next === 0) &&
      zoneEnd - (midnight + MINUTES_PER_DAY - offset) >= MINUTES_PER_DAY &&
      (span === spanTotal || (spanStart[span] as number) > local)
    ) {
      let endLocal = midnight + MINUTES_PER_DAY;
      if (dayEnd + offset < endLocal) endLocal = dayEnd + offset;
      if (span < spanTotal && (spanStart[span] as number) < endLocal) endLocal = spanStart[span] as number;
      if (lastStart + 1 + offset < endLocal) endLocal = lastStart + 1 + offset;
      // An untouched day's stretch within one run is priced as quickly by the walk below.
      if (clean || (runTo[runOf(tables, weekdayOfDay(localDay), local - midnight)] as number) < endLocal - midnight) {
        stretchTo = endLocal - midnight;
      }
    }
    if (stretchTo > 0 && dayTable !== null) {
      const endLocal = midnight + stretchTo;
      const weekday = weekdayOfDay(localDay);
      const from = local - midnight;
      const to = stretchTo;
      // Small whole numbers, but V8 holds them as doubles here, and `%` on doubles is a slow call (fmod): as int32.
      const phase = (from | 0) % (increment | 0);

      // Whole days (calendar) or whole 24-hour windows (rolling) in a row, from the first increment of one: each
      // priced from the day tables and closed here. The last is left to the stretch below as the day in progress.
      if (clean && daySum === 0 && tables.journalLength === 0 && tables.pendingLength === 0 && MINUTES_PER_DAY % increment === 0) {
        // Where whole days must stop (local): the next event, the stay's end, or a day before the next offset change.
        let limit = lastStart + 1 + offset;
        if (span < spanTotal && (spanStart[span] as number) < limit) limit = spanStart[span] as number;
        const lastDayEnd = Math.floor((zoneEnd + offset) / MINUTES_PER_DAY) - 1;
        const { dayTotal } = dayTable;
        if (!rolling && from < increment) {
          let whole = Math.floor(limit / MINUTES_PER_DAY) - localDay;
          if (lastDayEnd - localDay < whole) whole = lastDayEnd - localDay;
          if (whole >= 2) {
            let day = weekday;
            for (let index = 1; index < whole; index++) {
              const charge = dayTotal[phase * 7 + day] as number;
              if (dailyMax !== null && charge >= dailyMax) {
                subtotal += dailyMax;
                noteCapped(tables, dayNumber);
              } else {
                subtotal += charge;
                countLater(tables, segmentKey(day, phase, 0, MINUTES_PER_DAY) * 2);
              }
              dayNumber++;
              day = day === 6 ? 0 : day + 1;
            }
            calendarDay = localDay + whole - 1;
            next = Math.ceil((calendarDay * MINUTES_PER_DAY - offset - arrival) / increment);
            continue;
          }
        } else if (rolling && start === windowEnd - MINUTES_PER_DAY) {
          // Window j holds `from`–24:00 of day localDay + j and 00:00–`from` of the day after.
          let whole = Math.floor((limit - local) / MINUTES_PER_DAY);
          if (lastDayEnd - localDay - 1 < whole) whole = lastDayEnd - localDay - 1;
          if (whole >= 4) {
            const head = tables.headCharge;
            for (let day = 0; day < 7; day++) head[day] = chargeBefore(tables, dayTable, day, phase, from);
            let day = weekday;
            for (let index = 1; index < whole; index++) {
              const after = day === 6 ? 0 : day + 1;
              const charge = (dayTotal[phase * 7 + day] as number) - (head[day] as number) + (head[after] as number);
              if (dailyMax !== null && charge >= dailyMax) {
                subtotal += dailyMax;
                noteCapped(tables, dayNumber);
              } else {
                subtotal += charge;
                countLater(tables, segmentKey(day, phase, from, MINUTES_PER_DAY) * 2);
                if (from > 0) countLater(tables, segmentKey(after, phase, 0, from) * 2);
              }
              dayNumber++;
              day = after;
            }
            windowEnd += (whole - 1) * MINUTES_PER_DAY;
            next = Math.ceil((windowEnd - MINUTES_PER_DAY - arrival) / increment);
            continue;
          }
        }
      }
      let charge = chargeBefore(tables, dayTable, weekday, phase, to) - (from === 0 ? 0 : chargeBefore(tables, dayTable, weekday, phase, from));
      if (!clean) {
        // Untouched day: the tables count a flat band once at its first increment of the day, so the flat band in
        // progress at `from`, if it had increments earlier in the day, is charged here.
        const run = runOf(tables, weekday, from);
        const band = runBand[run] as number;
        if (band >= 0 && bandFlat[band] === 1 && startsBefore(from, phase, increment) > startsBefore(runFrom[run] as number, phase, increment)) {
          charge += bandPrice[band] as number;
        }
      }
      daySum += charge;
      pendSegment(tables, segmentKey(weekday, phase, from, to) * 2 + (clean ? 0 : 1));
      let after = Math.ceil((endLocal - offset - arrival) / increment);
      if (after > count) after = count;
      if (to < MINUTES_PER_DAY && after < count) {
        // The walk may take over within this day: the flat band in progress was visited.
        const lastMinute = arrival + (after - 1) * increment + offset - midnight;
        const lastBand = runBand[runOf(tables, weekday, lastMinute)] as number;
        if (lastBand >= 0 && bandFlat[lastBand] === 1) firstVisit(tables, localDay * 4096 + lastBand, localDay);
      }
      next = after;
      continue;
    }

    let runEndUtc = zoneEnd < dayEnd ? zoneEnd : dayEnd;
    let event = -1;
    let unitEndLocal = Number.POSITIVE_INFINITY;
    if (spanTotal > 0) {
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
      const run = runOf(tables, weekdayOfDay(localDay), local - localDay * MINUTES_PER_DAY);
      band = runBand[run] as number;
      const bandEnd = localDay * MINUTES_PER_DAY + (runTo[run] as number);
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
          if (band < touchedLow) touchedLow = band;
          if (band > touchedHigh) touchedHigh = band;
          journal(tables, band, 1);
          daySum += bandPrice[band] as number;
        }
      } else {
        bandCount[band] = (bandCount[band] as number) + inRun;
        if (band < touchedLow) touchedLow = band;
        if (band > touchedHigh) touchedHigh = band;
        journal(tables, band, inRun);
        daySum += inRun * (bandPrice[band] as number);
      }
    }
    next = after;
  }
  subtotal += closeDay(tables, dailyMax, daySum, dayNumber);

  // Charges of the days under their maximum (bands in the rate set's order, then events), then the capped days.
  tables.touchedLow = touchedLow;
  tables.touchedHigh = touchedHigh;
  for (let index = 0; dayTable !== null && index < tables.segmentLength; index++) {
    const key = tables.segmentKeys[index] as number;
    const stretch = Math.floor(key / 2);
    const untouched = key - stretch * 2 === 1;
    const weekdayPhase = Math.floor(stretch / (1441 * 1441));
    const fromTo = stretch - weekdayPhase * 1441 * 1441;
    const from = Math.floor(fromTo / 1441);
    const weekday = Math.floor(weekdayPhase / 60);
    countSegment(tables, dayTable, weekday, weekdayPhase - weekday * 60, from, fromTo - from * 1441, tables.segmentTimes[index] as number, untouched);
  }
  // Only the bands charged can be non-zero; each count is cleared as it is read, ready for the next quote.
  for (let band = tables.touchedLow; band <= tables.touchedHigh; band++) {
    const quantity = bandCount[band] as number;
    if (quantity > 0) {
      const unit = bandPrice[band] as number;
      lines.push({ kind: 'band', label: tables.bandLabel[band] as string, quantity, unitCents: unit, amountCents: quantity * unit });
    }
    bandCount[band] = 0;
  }
  tables.touchedLow = bandCount.length;
  tables.touchedHigh = -1;
  for (let event = 0; event < eventCount.length; event++) {
    const quantity = eventCount[event] as number;
    if (quantity > 0) {
      const unit = eventPrice[event] as number;
      lines.push({ kind: 'event', label: tables.eventLabel[event] as string, quantity, unitCents: unit, amountCents: quantity * unit });
    }
    eventCount[event] = 0;
    eventCharged[event] = 0;
  }
  tables.eventsTouched = false;
  for (let index = 0; dailyMax !== null && index < tables.cappedLength; index++) {
    lines.push({ kind: 'daily_max', label: dailyMaxLabel(tables.cappedDays[index] as number), quantity: 1, unitCents: dailyMax, amountCents: dailyMax });
  }
  return subtotal;
}

/** Ends a day of the daily maximum: what it adds to the subtotal; a capped day's charges leave the lines for one line. */
function closeDay(
  tables: PreparedRateSet,
  dailyMax: number | null,
  daySum: number,
  dayNumber: number,
): number {
  const length = tables.journalLength;
  tables.journalLength = 0;
  const pending = tables.pendingLength;
  tables.pendingLength = 0;
  // A day charged its maximum or more shows as one line, however it was priced (walked, skipped or looked up).
  if (dailyMax === null || daySum < dailyMax) {
    for (let index = 0; index < pending; index++) countLater(tables, tables.pendingSegments[index] as number);
    return daySum;
  }
  const { journalUnit, journalQuantity, bandCount, eventCount } = tables;
  for (let index = 0; index < length; index++) {
    const unit = journalUnit[index] as number;
    if (unit >= 0) bandCount[unit] = (bandCount[unit] as number) - (journalQuantity[index] as number);
    else eventCount[-1 - unit] = (eventCount[-1 - unit] as number) - (journalQuantity[index] as number);
  }
  noteCapped(tables, dayNumber);
  return dailyMax;
}

/** Notes a day that reached its maximum (its line comes after the bands' and events'). */
function noteCapped(tables: PreparedRateSet, dayNumber: number): void {
  if (tables.cappedLength === tables.cappedDays.length) {
    const grown = new Int32Array(tables.cappedDays.length * 2);
    grown.set(tables.cappedDays);
    tables.cappedDays = grown;
  }
  tables.cappedDays[tables.cappedLength++] = dayNumber;
}

/**
 * A stretch [from, to) of a weekday at a phase as one number (decoded where the lines are counted); the lines' key is
 * twice it, plus 1 when the stretch starts an untouched day.
 */
function segmentKey(weekday: number, phase: number, from: number, to: number): number {
  return ((weekday * 60 + phase) * 1441 + from) * 1441 + to;
}

/** Notes a stretch priced by the day tables in the current day (key: weekday, phase, from and to minutes). */
function pendSegment(tables: PreparedRateSet, key: number): void {
  if (tables.pendingLength === tables.pendingSegments.length) {
    const grown = new Float64Array(tables.pendingSegments.length * 2);
    grown.set(tables.pendingSegments);
    tables.pendingSegments = grown;
  }
  tables.pendingSegments[tables.pendingLength++] = key;
}

/** Adds a stretch of a day under its maximum to the lines, counting repeats of one stretch together. */
function countLater(tables: PreparedRateSet, key: number): void {
  const keys = tables.segmentKeys;
  for (let index = tables.segmentLength - 1; index >= 0; index--) {
    if (keys[index] === key) {
      tables.segmentTimes[index] = (tables.segmentTimes[index] as number) + 1;
      return;
    }
  }
  if (tables.segmentLength === keys.length) {
    const grownKeys = new Float64Array(keys.length * 2);
    const grownTimes = new Float64Array(keys.length * 2);
    grownKeys.set(keys);
    grownTimes.set(tables.segmentTimes);
    tables.segmentKeys = grownKeys;
    tables.segmentTimes = grownTimes;
  }
  tables.segmentKeys[tables.segmentLength] = key;
  tables.segmentTimes[tables.segmentLength++] = 1;
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
