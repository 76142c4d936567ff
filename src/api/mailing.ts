import type { Paged } from '../contract/lists';
import {
  MAILING_OPTIONS_PATH,
  MAILING_PREVIEW_PATH,
  MAILING_TEST_PATH,
  MAILINGS_PATH,
  mailingOptionsSchema,
  mailingPageSchema,
  mailingPath,
  mailingPreviewSchema,
  mailingSchema,
  mailingTestResultSchema,
  type Mailing,
  type MailingContent,
  type MailingInput,
  type MailingOptions,
  type MailingPreview,
} from '../contract/mailing';
import type { ApiClient, RequestOptions } from './client';

/** Mailing (issue 14, superuser only). Calls the screen explains in place are quiet: 400 and 409. */
const IN_PLACE = { quietStatuses: [400, 409] } as const;

export function getMailingOptions(client: ApiClient, options?: RequestOptions): Promise<MailingOptions> {
  return client.get(MAILING_OPTIONS_PATH, undefined, mailingOptionsSchema, options);
}

export function listMailings(client: ApiClient, options?: RequestOptions): Promise<Paged<Mailing>> {
  return client.get(MAILINGS_PATH, { page: 1, pageSize: 25 }, mailingPageSchema, options);
}

export function getMailing(client: ApiClient, mailingId: number, options?: RequestOptions): Promise<Mailing> {
  return client.get(mailingPath(mailingId), undefined, mailingSchema, options);
}

export function previewMailing(client: ApiClient, input: MailingInput): Promise<MailingPreview> {
  return client.post(MAILING_PREVIEW_PATH, input, mailingPreviewSchema, IN_PLACE);
}

export function sendTestMailing(client: ApiClient, content: MailingContent): Promise<{ sentTo: string }> {
  return client.post(MAILING_TEST_PATH, content, mailingTestResultSchema, IN_PLACE);
}

export function sendMailing(client: ApiClient, input: MailingInput): Promise<Mailing> {
  return client.post(MAILINGS_PATH, input, mailingSchema, IN_PLACE);
}
