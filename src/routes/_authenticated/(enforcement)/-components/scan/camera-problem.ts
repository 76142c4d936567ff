/**
 * Why Scan cannot read, in the officer's words, with what to do about it; typing always stays open. Keyed by the
 * DOMException names getUserMedia rejects with.
 */
export function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'The camera is blocked for this site. To scan, allow the camera: tap the camera or lock icon beside the address, choose Allow, then press Scan again. You can type the plate meanwhile.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'This device has no camera the console can use. Type the plate instead.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The camera could not start: another app may be using it. Close that app and press Scan again, or type the plate.';
    default:
      return 'The camera could not start. Press Scan again, or type the plate.';
  }
}

/** getUserMedia exists only in secure contexts (https, or localhost). */
export const NO_CAMERA_API =
  'The camera can only be used over a secure (https) connection, which this page does not have. Type the plate instead.';

export const READER_UNAVAILABLE =
  'The plate reader could not load. It is downloaded once and then kept for offline use: connect to the network, press Scan again, or type the plate.';
