import type { DownloadedFile } from './client';

/** Long enough for the browser to have started writing the file; the object URL is released afterwards. */
const REVOKE_AFTER_MS = 30_000;

/**
 * Saves a downloaded file as the browser's own download would: an object URL for the blob, a temporary
 * `<a download>` clicked once, the URL released once the browser has taken the file.
 */
export function saveFile(file: DownloadedFile, doc: Document = document): void {
  const url = URL.createObjectURL(file.blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  link.hidden = true;
  doc.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
