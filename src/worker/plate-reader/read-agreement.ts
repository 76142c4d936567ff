import type { PlateRead } from './plate-reader-api';

/** Plates in the US and Canada carry 2–8 characters; a shorter or longer read is a misread or not a plate. */
export const MIN_PLATE_LENGTH = 2;
export const MAX_PLATE_LENGTH = 8;
/** A character read with less confidence than this (of 100) in either read is marked for the officer to check. */
export const UNSURE_BELOW = 75;

/** A read the scanner settles on: the plate and the positions of the characters the officer should check. */
export interface SettledRead {
  plate: string;
  unsure: number[];
}

export const isPlausiblePlate = (read: PlateRead) => read.text.length >= MIN_PLATE_LENGTH && read.text.length <= MAX_PLATE_LENGTH;

/**
 * Two consecutive plausible reads that agree settle the plate: one frame may be read wrong, two different frames
 * rarely the same wrong way. A character is unsure when either read was unsure of it.
 */
export function agreed(previous: PlateRead | null, current: PlateRead): SettledRead | null {
  if (previous === null || !isPlausiblePlate(current) || previous.text !== current.text) return null;
  return settled(current, previous);
}

/** The officer tapped: the latest plausible read stands on its own, every doubtful character marked. */
export function settled(read: PlateRead, other?: PlateRead): SettledRead {
  const unsure = read.characters.flatMap((character, index) => {
    const confidence = Math.min(character.confidence, other?.characters[index]?.confidence ?? character.confidence);
    return confidence < UNSURE_BELOW ? [index] : [];
  });
  return { plate: read.text, unsure };
}
