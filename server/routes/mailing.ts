import { createRoute, z } from '@hono/zod-openapi';
import { successEnvelope } from '../../src/contract/envelope';
import { listWindow } from '../../src/contract/lists';
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
import { pageBeyondLimit } from '../db/paging';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure, invalidFields } from '../http/responses';
import { requireStaffSession } from '../http/staff-auth';
import { composeMessage, envelopeAddress, htmlDocument, prepareContent, testMessageId } from '../mailing/render';
import type { MailerSettings } from '../mailing/runner';
import { SmtpLink, withoutAddresses } from '../mailing/smtp-link';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

/** Rendered samples in the preview: enough to see the personalisation, few enough to read. */
const PREVIEW_SAMPLES = 3;

export interface MailingDeps {
  settings: MailerSettings;
  /** Told when a mailing is queued, so sending starts at once (absent in tests that check the queue only). */
  runner?: { kick(): void };
}

export function registerMailingRoutes(app: ApiApp, deps: RouteDeps, mailer: MailingDeps): void {
  // Spec §2/§6: Mailing is for superusers only; checked before the body is read, so others learn nothing.
  const staffSession = requireStaffSession(deps, { superuserOnly: 'Only a superuser may use Mailing.' });


  const options = createRoute({
    method: 'get',
    path: MAILING_OPTIONS_PATH,
    tags: ['mailing'],
    summary: 'What a segment may name: locations, parker statuses, roles (superuser)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    responses: {
      200: { description: 'The choices', content: json(responseSchema(successEnvelope(mailingOptionsSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(options, async (c) => c.json({ success: true as const, data: await mailingOptions(deps.db) }, 200));

  const preview = createRoute({
    method: 'post',
    path: MAILING_PREVIEW_PATH,
    tags: ['mailing'],
    summary: 'Recipient count and a few messages rendered as recipients will get them (sanitised HTML) (superuser)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(mailingInputSchema)) } },
    responses: {
      200: { description: 'Count and samples', content: json(responseSchema(successEnvelope(mailingPreviewSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(preview, async (c) => {
    const input = c.req.valid('json');
    const unknown = await unknownSegmentIds(deps.db, input.segment);
    if (Object.keys(unknown).length > 0) return c.json(invalidFields(unknown), 400);
    const segment = await previewSegment(deps.db, input.segment, PREVIEW_SAMPLES);
    const content = prepareContent(input.subject, input.body);
    const samples = segment.samples.map((member) => {
      const parts = content.personalise(member);
      return { name: `${member.first_name} ${member.last_name}`.trim(), ...parts, html: htmlDocument(parts.html) };
    });
    return c.json(
      { success: true as const, data: { recipientCount: segment.count, optedOutCount: segment.optedOut, samples } },
      200,
    );
  });

  const test = createRoute({
    method: 'post',
    path: MAILING_TEST_PATH,
    tags: ['mailing'],
    summary: 'Sends the message once to the signed-in superuser, personalised with their own name (superuser)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(mailingContentSchema)) } },
    responses: {
      200: { description: 'Where it went', content: json(responseSchema(successEnvelope(mailingTestResultSchema))) },
      ...errorResponses(400, 401, 403, 409),
    },
  });
  app.openapi(test, async (c) => {
    const staff = c.get('staff');
    const input = c.req.valid('json');
    const name = (staff.displayName ?? '').trim();
    const space = name.indexOf(' ');
    const person = space < 0 ? { first_name: name, last_name: '' } : { first_name: name.slice(0, space), last_name: name.slice(space + 1) };
    const parts = prepareContent(`[Test] ${input.subject}`, input.body).personalise(person);
    const { from } = mailer.settings;
    const raw = await composeMessage({ from, to: staff.email, ...parts, messageId: testMessageId(from) });
    const link = new SmtpLink(mailer.settings.smtp);
    try {
      const held = await link.transmitHeld(envelopeAddress(from), staff.email, raw);
      held.release();
      const delivery = await held.delivery;
      if (!delivery.ok) return c.json(failure(`The mail server refused the test message: ${delivery.reason}`), 409);
    } catch (error) {
      const reason = withoutAddresses(error instanceof Error ? error.message : String(error));
      return c.json(failure(`The test message could not be sent: ${reason}`), 409);
    } finally {
      link.quit();
    }
    return c.json({ success: true as const, data: { sentTo: staff.email } }, 200);
  });

  const list = createRoute({
    method: 'get',
    path: MAILINGS_PATH,
    tags: ['mailing'],
    summary: 'Mailings, newest first, with their counts (superuser)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(mailingListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(mailingPageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    const window = listWindow(c.req.valid('query'));
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    return c.json({ success: true as const, data: await listMailings(deps.db, window) }, 200);
  });

  const send = createRoute({
    method: 'post',
    path: MAILINGS_PATH,
    tags: ['mailing'],
    summary: 'Queues a mailing to a segment; the server sends it at the configured rate (superuser)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(mailingInputSchema)) } },
    responses: {
      200: { description: 'The queued mailing', content: json(responseSchema(successEnvelope(mailingSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(send, async (c) => {
    const staff = c.get('staff');
    const input = c.req.valid('json');
    const unknown = await unknownSegmentIds(deps.db, input.segment);
    if (Object.keys(unknown).length > 0) return c.json(invalidFields(unknown), 400);
    const result = await createMailing(deps.db, input, { userId: staff.userId, email: staff.email }, mailer.settings.ratePerSecond);
    if (result.kind === 'noRecipients') {
      return c.json(invalidFields({ segment: 'Nobody in this segment can be mailed: choose other recipients.' }), 400);
    }
    mailer.runner?.kick();
    return c.json({ success: true as const, data: result.mailing }, 200);
  });

  const detail = createRoute({
    method: 'get',
    path: `${MAILINGS_PATH}/{mailingId}`,
    tags: ['mailing'],
    summary: 'One mailing and its progress: sent, failed, skipped, left (superuser)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(mailingParamsSchema) },
    responses: {
      200: { description: 'The mailing', content: json(responseSchema(successEnvelope(mailingSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    const { mailingId } = c.req.valid('param');
    const mailing = await findMailing(deps.db, mailingId);
    if (!mailing) return c.json(failure(`Mailing ${mailingId} does not exist.`), 404);
    return c.json({ success: true as const, data: mailing }, 200);
  });
}
