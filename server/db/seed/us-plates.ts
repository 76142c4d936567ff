import type { Random } from './prng';

/**
 * US license plates as an enforcement system stores them: upper case, letters and digits only (the dash of TX
 * `ABC-1234` and the space of IL `AB 12345` are dropped, as plate readers and officers' searches do).
 *
 * Pattern letters: `@` a serial letter (states skip I, O and Q so they are not read as 1 and 0), `#` a digit, `N` a
 * digit other than 0. Vanity plates use every letter, so O/0 and I/1 look-alikes do occur.
 */
const SERIAL_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

export const STATE_PLATE_FORMATS: Readonly<Record<string, readonly string[]>> = {
  AZ: ['@@@####'],
  CA: ['N@@@###'],
  CO: ['@@@@##', '###@@@'],
  FL: ['@@@@##', '@@@#@@'],
  GA: ['@@@####'],
  IL: ['@@#####', '@######'],
  IN: ['###@@@'],
  MA: ['N@@@##', '###@@#'],
  MI: ['@@@####'],
  MN: ['###@@@'],
  NJ: ['@##@@@'],
  NM: ['@@@###'],
  NV: ['N@@###'],
  NY: ['@@@####'],
  OH: ['@@@####'],
  OR: ['###@@@'],
  PA: ['@@@####'],
  TX: ['@@@####'],
  UT: ['N@@@#@'],
  WA: ['@@@####'],
  WI: ['@@@####'],
};

/** Out-of-state visitors come mostly from neighbours; the rest from anywhere. */
const NEIGHBOURS: Readonly<Record<string, readonly string[]>> = {
  AZ: ['CA', 'NV', 'NM', 'UT', 'TX'],
  CO: ['NM', 'UT', 'TX', 'AZ'],
  IL: ['IN', 'WI', 'MI', 'MN', 'OH'],
  MA: ['NY', 'NJ', 'PA'],
  WA: ['OR', 'CA'],
};

const VANITY_WORDS = [
  'GOCUBS', 'BEARS1', 'SOXFAN', 'LUV2PRK', 'SEAHAWK', 'RAINCTY', 'RDSOX', 'BOSTON1', 'MILEHI', 'SUNDVL',
  'TESLA3', 'NOTMINE', 'ICU2', 'OOPS', 'B4DAWN', 'KIDTAXI', 'LATE4IT', 'XOXO', 'GR8DAY', 'MOMSVAN', 'IOU1',
  'OHIO', 'ZOOM', 'COFFEE', 'SLO DWN', 'PARKIT', 'MEOW', 'GOBLUE', 'DOC ON', 'BRB', 'ROADIE', '1OF1',
] as const;

export const VANITY_PLATES: readonly string[] = VANITY_WORDS.map(normalizePlate);

export const STATES = Object.keys(STATE_PLATE_FORMATS);

export function normalizePlate(plate: string): string {
  return plate.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

function fillPattern(random: Random, pattern: string): string {
  let plate = '';
  for (const symbol of pattern) {
    if (symbol === '@') plate += SERIAL_LETTERS.charAt(random.int(0, SERIAL_LETTERS.length - 1));
    else if (symbol === '#') plate += String(random.int(0, 9));
    else if (symbol === 'N') plate += String(random.int(1, 9));
    else plate += symbol;
  }
  return plate;
}

/** The state a car is registered in, for a location in `homeState`: mostly local, some neighbours, a few far away. */
export function registrationState(random: Random, homeState: string | undefined): string {
  const roll = random.next();
  if (homeState && STATE_PLATE_FORMATS[homeState] && roll < 0.72) return homeState;
  const neighbours = homeState ? NEIGHBOURS[homeState] : undefined;
  if (neighbours && roll < 0.88) return random.pick(neighbours);
  return random.pick(STATES);
}

/** A new plate of that state: a serial plate, or (3 %) a vanity plate. */
export function randomPlate(random: Random, state: string): string {
  if (random.chance(0.03)) {
    const word = random.pick(VANITY_PLATES);
    // The list is short; a digit now and then keeps vanity plates from all being the same few.
    return random.chance(0.5) || word.length >= 7 ? word : `${word}${random.int(1, 9)}`;
  }
  const formats = STATE_PLATE_FORMATS[state] ?? ['@@@####'];
  return fillPattern(random, random.pick(formats));
}
