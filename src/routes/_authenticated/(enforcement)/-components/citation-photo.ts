import { MAX_PHOTO_BYTES, PHOTO_TYPES, type PhotoType } from '../../../../contract/citations';
import type { TakenPhoto } from '../../../../api/citation-outbox/outbox';

/** The longest side of a photo as kept: plenty to read a plate or a sign, ~200–400 KB as JPEG. */
export const PHOTO_MAX_SIDE = 1600;
const QUALITY = 0.8;

/**
 * A photo from the camera or a file, compressed on the device before it is kept: scaled to 1600 px at most and
 * written as JPEG. Where the browser cannot (no createImageBitmap), a JPEG, PNG or WebP already small enough is kept
 * as it is; anything else is refused in words.
 */
export async function compressPhoto(file: Blob): Promise<TakenPhoto> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY));
    if (blob && blob.size <= MAX_PHOTO_BYTES) return { content_type: 'image/jpeg', bytes: await blob.arrayBuffer() };
  } catch {
    // Not decodable here: kept as it is below, if it can be.
  }
  if ((PHOTO_TYPES as readonly string[]).includes(file.type) && file.size > 0 && file.size <= MAX_PHOTO_BYTES) {
    return { content_type: file.type as PhotoType, bytes: await file.arrayBuffer() };
  }
  throw new Error('This photo could not be read or made small enough. Take it again, or choose a JPEG, PNG or WebP photo.');
}
