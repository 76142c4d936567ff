// The API client's error and request options, in a module of their own: the client and the lazily loaded download
// reader (download-body.ts) both use them, and neither imports the other back (no import cycle, docs/architecture.md).

/**
 * A failed API call. `message` is what the console shows; `code` is the server's `error` code when there is one;
 * `data` is the error body's `data`, unparsed: who changed a record for a 409, `fieldErrors` for a 400
 * (src/api/error-data.ts reads them with the contract's schemas).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status?: number;
  readonly code?: string;
  readonly data?: unknown;

  constructor(message: string, options: { status?: number; code?: string; data?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.status !== undefined) this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
    if (options.data !== undefined) this.data = options.data;
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

export interface RequestOptions {
  /** Aborts the call; an aborted call rejects with the fetch AbortError, not an ApiError. */
  signal?: AbortSignal;
  /**
   * HTTP statuses the caller shows in place (a form's 400 field errors, a 409 conflict, a detail page's 404): such
   * failures still reject, but are not reported to `onError`, so no toast repeats what the screen already says.
   */
  quietStatuses?: readonly number[];
  /** Extra request headers (a refund's Idempotency-Key). */
  headers?: Readonly<Record<string, string>>;
}

export interface DownloadOptions extends RequestOptions {
  /** Bytes received so far, as the body arrives (the length of a streamed export is not known in advance). */
  onProgress?: (receivedBytes: number) => void;
  /** The file name when the response names none (or the browser may not read Content-Disposition). */
  fallbackFileName: string;
}

/** A file the API sent (a CSV export), ready to be saved. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}
