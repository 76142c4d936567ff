import { ApiError, isAbortError, type DownloadedFile, type DownloadOptions } from './api-error';

/** `attachment; filename="locations-2026-11-23.csv"` (or RFC 6266's `filename*=UTF-8''…`) → the file name. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return baseName(decodeURIComponent(extended[1].trim()));
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name ? baseName(name) : null;
}

/** Never a path: a name like `../x.csv` is saved as `x.csv`. */
function baseName(name: string): string | null {
  const base = name.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

/** The file of a successful download: its bytes as they arrive (reported), then its name. */
export async function readDownload(response: Response, options: DownloadOptions): Promise<DownloadedFile> {
  const type = response.headers.get('Content-Type') ?? '';
  const chunks: BlobPart[] = [];
  let received = 0;
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        options.onProgress?.(received);
      }
    } else {
      const blob = await response.blob();
      chunks.push(blob);
      options.onProgress?.(blob.size);
    }
  } catch (error) {
    if (isAbortError(error)) throw error;
    // The server aborts the stream when it fails midway (server/http/csv.ts): never save a short file.
    throw new ApiError('The download was interrupted; nothing was saved. Try again.', {
      status: response.status,
      cause: error,
    });
  }
  return {
    blob: new Blob(chunks, { type: type || 'application/octet-stream' }),
    fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? options.fallbackFileName,
  };
}
