import type { ApiClient, RequestOptions } from './client';
import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import {
  CITATIONS_EXPORT_PATH,
  CITATIONS_PATH,
  citationPageSchema,
  citationPath,
  citationPhotoPath,
  citationSchema,
  type Citation,
  type CitationListQuery,
  type CitationVoid,
} from '../contract/citations';

/** The office's side of citations (issue 38): the list, one citation with its photos and History, void, CSV. */
export function listCitations(client: ApiClient, search: CitationListQuery, options?: RequestOptions): Promise<Paged<Citation>> {
  return client.get(CITATIONS_PATH, search, citationPageSchema, options);
}

export function getCitation(client: ApiClient, citationId: string, options?: RequestOptions): Promise<Citation> {
  return client.get(citationPath(citationId), undefined, citationSchema, { quietStatuses: [404], ...options });
}

export function getCitationHistory(client: ApiClient, citationId: string, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${citationPath(citationId)}/history`, undefined, historySchema, { quietStatuses: [404], ...options });
}

/** The void dialog says a 400 or 409 itself. */
export function voidCitation(client: ApiClient, citationId: string, change: CitationVoid): Promise<Citation> {
  return client.post(`${citationPath(citationId)}/void`, change, citationSchema, { quietStatuses: [400, 409] });
}

/** A photo's bytes, read with the session's headers (an <img> could not send them), for an object URL. */
export async function getCitationPhoto(client: ApiClient, citationId: string, sha256: string, options?: RequestOptions): Promise<Blob> {
  const file = await client.download(citationPhotoPath(citationId, sha256), undefined, { fallbackFileName: sha256, quietStatuses: [404], ...options });
  return file.blob;
}

export async function exportCitationsCsv(client: ApiClient, search: CitationListQuery, onProgress?: (receivedBytes: number) => void) {
  const { page: _page, pageSize: _pageSize, ...filters } = search;
  const file = await client.download(CITATIONS_EXPORT_PATH, filters, {
    fallbackFileName: `citations-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  const { saveFile } = await import('./save-file');
  saveFile(file);
}
