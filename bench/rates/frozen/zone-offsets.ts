/*
 * FROZEN: src/rates/zone-offsets.ts as of commit 0667ea5, the parent of 6c7944b ("per-weekday prefix sums"), copied verbatim
 * (`git show 6c7944b^:src/rates/zone-offsets.ts`). With the three other files of this folder it is the price engine before
 * the day tables: the baseline `npm run bench:rates` divides today's engine by (issue 35, docs/benchmarks.md).
 * It must NEVER change, not even to follow a lint rule or a type: a changed baseline makes every ratio
 * measured against it incomparable with the ones before. (jscpd ignores this folder: the copy is the point.)
 */
/**
 * UTC offsets of a time zone as a table of transitions, computed with Intl once per zone and year and then read with
 * integer arithmetic: a quote never calls Intl (docs/rates.md "Speed"). Years are added as quotes reach them.
 *
 * Offsets are sampled once a day and each change is located to the minute by bisection, so two changes of one zone
 * less than a day apart would be seen as one (no zone has had that since 1970). Seconds in historical offsets
 * (local mean time before 1900) are dropped: rates are for today's stays.
 */
const MINUTES_PER_DAY = 1440;

function utcYearStart(year: number): number {
  return Date.UTC(year, 0, 1) / 60_000;
}
function utcYearOf(minute: number): number {
  return new Date(minute * 60_000).getUTCFullYear();
}

export class ZoneOffsets {
  /** starts[i] is the first UTC minute with offsets[i]; the table covers [starts[0], coveredTo). */
  readonly starts: number[] = [];
  readonly offsets: number[] = [];
  coveredTo = 0;
  private readonly format: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    // Throws RangeError for a zone Intl does not know, which is what a caller passing one should hear.
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
  }

  /** Offset (local minus UTC, minutes) at a UTC minute, asked of Intl: only for building the table. */
  private offsetFromIntl(utcMinute: number): number {
    let year = 0;
    let month = 0;
    let day = 0;
    let hour = 0;
    let minute = 0;
    for (const part of this.format.formatToParts(new Date(utcMinute * 60_000))) {
      if (part.type === 'year') year = Number(part.value);
      else if (part.type === 'month') month = Number(part.value);
      else if (part.type === 'day') day = Number(part.value);
      else if (part.type === 'hour') hour = Number(part.value);
      else if (part.type === 'minute') minute = Number(part.value);
    }
    return Date.UTC(year, month - 1, day, hour, minute) / 60_000 - utcMinute;
  }

  /** Transitions in [from, to): the offset at `from`, then each change, as parallel arrays. */
  private scan(from: number, to: number): { starts: number[]; offsets: number[] } {
    const starts = [from];
    const offsets = [this.offsetFromIntl(from)];
    let previous = from;
    let previousOffset = offsets[0] as number;
    while (previous < to - 1) {
      const next = Math.min(previous + MINUTES_PER_DAY, to - 1);
      const nextOffset = this.offsetFromIntl(next);
      if (nextOffset !== previousOffset) {
        let low = previous;
        let high = next;
        while (high - low > 1) {
          const middle = low + Math.floor((high - low) / 2);
          if (this.offsetFromIntl(middle) === previousOffset) low = middle;
          else high = middle;
        }
        starts.push(high);
        offsets.push(nextOffset);
      }
      previous = next;
      previousOffset = nextOffset;
    }
    return { starts, offsets };
  }

  /** Makes the table cover [from, to]. */
  cover(from: number, to: number): void {
    if (this.starts.length === 0) {
      const year = utcYearOf(from);
      const scanned = this.scan(utcYearStart(year), utcYearStart(year + 1));
      this.starts.push(...scanned.starts);
      this.offsets.push(...scanned.offsets);
      this.coveredTo = utcYearStart(year + 1);
    }
    while (from < (this.starts[0] as number)) {
      const first = this.starts[0] as number;
      const scanned = this.scan(utcYearStart(utcYearOf(first) - 1), first);
      if (scanned.offsets[scanned.offsets.length - 1] === this.offsets[0]) {
        this.starts.shift();
        this.offsets.shift();
      }
      this.starts.unshift(...scanned.starts);
      this.offsets.unshift(...scanned.offsets);
    }
    while (to >= this.coveredTo) {
      const end = utcYearStart(utcYearOf(this.coveredTo) + 1);
      const scanned = this.scan(this.coveredTo, end);
      const last = this.offsets[this.offsets.length - 1];
      const skip = scanned.offsets[0] === last ? 1 : 0;
      this.starts.push(...scanned.starts.slice(skip));
      this.offsets.push(...scanned.offsets.slice(skip));
      this.coveredTo = end;
    }
  }

  /** Index of the table entry holding a covered UTC minute. */
  indexAt(utcMinute: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= utcMinute) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** First UTC minute after entry `index` (the next change, or the end of the table). */
  endOf(index: number): number {
    return index + 1 < this.starts.length ? (this.starts[index + 1] as number) : this.coveredTo;
  }

  /** Offset at a UTC minute, covering it first (for callers outside the hot path). */
  offsetAt(utcMinute: number): number {
    this.cover(utcMinute, utcMinute);
    return this.offsets[this.indexAt(utcMinute)] as number;
  }
}

const zones = new Map<string, ZoneOffsets>();

/** The shared table of a zone. */
export function zoneOffsets(timeZone: string): ZoneOffsets {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = new ZoneOffsets(timeZone);
    zones.set(timeZone, zone);
  }
  return zone;
}
