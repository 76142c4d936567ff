import { wrap, type Remote } from 'comlink';
import type { PlateReaderApi } from './plate-reader-api';

let reader: Remote<PlateReaderApi> | null = null;

/**
 * The plate reader's worker, started on the first Scan and kept for the next ones (the model stays loaded: a second
 * Scan reads at once). Imported only by the Scan view, so nothing of the reader joins the plate search's first load.
 */
export function plateReader(): Remote<PlateReaderApi> {
  reader ??= wrap<PlateReaderApi>(
    new Worker(new URL('./plate-reader.worker.ts', import.meta.url), { type: 'module', name: 'plate-reader' }),
  );
  return reader;
}
