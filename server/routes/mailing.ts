import {
  MAILING_OPTIONS_PATH,
  MAILING_PREVIEW_PATH,
  MAILING_TEST_PATH,
  MAILINGS_PATH,
  mailingContentSchema,
  mailingInputSchema,
  mailingListQuerySchema,
  mailingOptionsSchema,
  mailingPageSchema,
  mailingParamsSchema,
  mailingPreviewSchema,
  mailingSchema,
  mailingTestResultSchema,
} from '../../src/contract/mailing';
import { createMailing, findMailing, listMailings, mailingOptions, previewSegment, unknownSegmentIds } from '../db/mailings';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { conflict, fieldProblems, notFound, ok } from '../http/outcome';
import { serverSection, type Access } from '../http/section-kit';
import { composeMessage, envelopeAddress, htmlDocument, prepareContent, testMessageId } from '../mailing/render';
import type { MailerSettings } from '../mailing/runner';
import { SmtpLink, withoutAddresses } from '../mailing/smtp-link';

/** Rendered samples in the preview: enough to see the personalisation, few enough to read. */
const PREVIEW_SAMPLES = 3;

/** Spec §2/§6: Mailing is for superusers only; checked before the body is read, so others learn nothing. */
const SUPERUSER: Access = { superuserOnly: 'Only a superuser may use Mailing.' };

export interface MailingDeps {
  settings: MailerSettings;
  /** Told when a mailing is queued, so sending starts at once (absent in tests that check the queue only). */
  runner?: { kick(): void };
}

export function registerMailingRoutes(app: ApiApp, deps: RouteDeps, mailer: MailingDeps): void {
  const section = serverSection(app, deps, { tag: 'mailing', records: 'Mailing' });

  section.route({
    method: 'get',
    path: MAILING_OPTIONS_PATH,
    summary: 'What a segment may name: locations, parker statuses, roles (superuser)',
    access: SUPERUSER,
    data: mailingOptionsSchema,
    answers: 'The choices',
    handle: async ({ db }) => ok(await mailingOptions(db)),
  });

  section.route({
    method: 'post',
    path: MAILING_PREVIEW_PATH,
    summary: 'Recipient count and a few messages rendered as recipients will get them (sanitised HTML) (superuser)',
    access: SUPERUSER,
    body: mailingInputSchema,
    data: mailingPreviewSchema,
    answers: 'Count and samples',
    handle: async ({ db, body }) => {
      const unknown = await unknownSegmentIds(db, body.segment);
      if (Object.keys(unknown).length > 0) return fieldProblems(unknown);
      const segment = await previewSegment(db, body.segment, PREVIEW_SAMPLES);
      const content = prepareContent(body.subject, body.body);
      const samples = segment.samples.map((member) => {
        const parts = content.personalise(member);
        return { name: `${member.first_name} ${member.last_name}`.trim(), ...parts, html: htmlDocument(parts.html) };
      });
      return ok({ recipientCount: segment.count, optedOutCount: segment.optedOut, samples });
    },
  });

  section.route({
    method: 'post',
    path: MAILING_TEST_PATH,
    summary: 'Sends the message once to the signed-in superuser, personalised with their own name (superuser)',
    access: SUPERUSER,
    body: mailingContentSchema,
    data: mailingTestResultSchema,
    answers: 'Where it went',
    errors: [409],
    handle: async ({ staff, body }) => {
      const name = (staff.displayName ?? '').trim();
      const space = name.indexOf(' ');
      const person = space < 0 ? { first_name: name, last_name: '' } : { first_name: name.slice(0, space), last_name: name.slice(space + 1) };
      const parts = prepareContent(`[Test] ${body.subject}`, body.body).personalise(person);
      const { from } = mailer.settings;
      const raw = await composeMessage({ from, to: staff.email, ...parts, messageId: testMessageId(from) });
      const link = new SmtpLink(mailer.settings.smtp);
      try {
        const held = await link.transmitHeld(envelopeAddress(from), staff.email, raw);
        held.release();
        const delivery = await held.delivery;
        if (!delivery.ok) return conflict(`The mail server refused the test message: ${delivery.reason}`);
      } catch (error) {
        const reason = withoutAddresses(error instanceof Error ? error.message : String(error));
        return conflict(`The test message could not be sent: ${reason}`);
      } finally {
        link.quit();
      }
      return ok({ sentTo: staff.email });
    },
  });

  section.list({
    path: MAILINGS_PATH,
    summary: 'Mailings, newest first, with their counts (superuser)',
    access: SUPERUSER,
    query: mailingListQuerySchema,
    page: mailingPageSchema,
    read: ({ db }, window) => listMailings(db, window),
  });

  section.route({
    method: 'post',
    path: MAILINGS_PATH,
    summary: 'Queues a mailing to a segment; the server sends it at the configured rate (superuser)',
    access: SUPERUSER,
    body: mailingInputSchema,
    data: mailingSchema,
    answers: 'The queued mailing',
    // Not `writes`: createMailing keeps its own transaction (the job and its recipients, rolled back when nobody can
    // be mailed), and the runner must be told only once it has committed, or it could look before the job is there.
    handle: async ({ db, actor, body }) => {
      const unknown = await unknownSegmentIds(db, body.segment);
      if (Object.keys(unknown).length > 0) return fieldProblems(unknown);
      const result = await createMailing(deps.db, body, actor, mailer.settings.ratePerSecond);
      if (result.kind === 'noRecipients') {
        return fieldProblems({ segment: 'Nobody in this segment can be mailed: choose other recipients.' });
      }
      mailer.runner?.kick();
      return ok(result.mailing);
    },
  });

  section.route({
    method: 'get',
    path: `${MAILINGS_PATH}/{mailingId}`,
    summary: 'One mailing and its progress: sent, failed, skipped, left (superuser)',
    access: SUPERUSER,
    params: mailingParamsSchema,
    data: mailingSchema,
    answers: 'The mailing',
    errors: [404],
    handle: async ({ db, params: { mailingId } }) => {
      const mailing = await findMailing(db, mailingId);
      return mailing ? ok(mailing) : notFound(`Mailing ${mailingId} does not exist.`);
    },
  });
}
