import type { Random } from './prng';

/** Area codes per state; the exchange is always 555 and the line 01xx, the range reserved for fiction. */
const AREA_CODES: Readonly<Record<string, readonly string[]>> = {
  AZ: ['602', '480', '623'],
  CA: ['415', '213', '310', '619'],
  CO: ['303', '720', '719'],
  FL: ['305', '407', '813'],
  IL: ['312', '773', '872', '630', '847'],
  MA: ['617', '857', '781'],
  NY: ['212', '646', '718'],
  TX: ['214', '512', '713'],
  WA: ['206', '425', '253'],
};
const OTHER_AREA_CODES = ['202', '404', '503', '612', '702', '801'];

/** `+1 312 555 0143`: how the payment app stores the number a parker typed for expiry reminders. */
export function randomPhone(random: Random, state: string | undefined): string {
  const codes = (state && AREA_CODES[state]) || OTHER_AREA_CODES;
  return `+1 ${random.pick(codes)} 555 01${String(random.int(0, 99)).padStart(2, '0')}`;
}

export const FIRST_NAMES = [
  'James', 'Maria', 'Robert', 'Aisha', 'Michael', 'Mei', 'David', 'Priya', 'Carlos', 'Emily', 'Daniel', 'Fatima',
  'Jose', 'Olivia', 'Kevin', 'Sofia', 'Brian', 'Keisha', 'Thomas', 'Ana', 'Andrew', 'Hannah', 'Luis', 'Grace',
  'Marcus', 'Yuki', 'Patrick', 'Chloe', 'Ahmed', 'Rachel', 'Tyrone', 'Nicole', 'Wei', 'Lauren', 'Diego', 'Megan',
  "D'Andre", 'Anne-Marie', 'Siobhan', 'José Luis',
] as const;

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Garcia', 'Brown', 'Nguyen', 'Martinez', 'Patel', 'Kim', 'Rodriguez', 'Lee',
  'Walker', 'Hernandez', 'Chen', 'Lopez', 'Jackson', 'Wang', 'Thompson', 'Kowalski', 'Okafor', 'Murphy',
  'Rivera', 'Cohen', 'Nakamura', 'Singh', 'Washington', 'Sullivan', 'Ali', 'Anderson', 'Flores',
  "O'Brien", 'García-Márquez', 'Van der Berg', 'Nowak',
] as const;
