import { randomUUID } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import sanitizeHtml from 'sanitize-html';

/**
 * A mailing's body is Markdown. It becomes HTML through markdown-it with raw HTML off, then sanitize-html with a
 * short allowlist, so nothing a composer types (script tags, event handlers, javascript: or data: links, raw HTML)
 * reaches a message or the console's preview. The plain-text part is the Markdown itself, which reads as text.
 * Placeholders are replaced after sanitising, with HTML-escaped values, so a parker named `<b>` stays text.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'em', 'a', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'blockquote', 'code', 'pre', 'hr'],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // A link in a mail has no base to be relative to: only absolute http, https and mailto survive (as text otherwise).
  // Links tell the target nothing about where they came from.
  transformTags: {
    a: (tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag => {
      const href = attribs.href ?? '';
      return /^(https?:\/\/|mailto:)/i.test(href)
        ? { tagName, attribs: { href, rel: 'noopener noreferrer' } }
        : { tagName, attribs: {} };
    },
  },
};

export interface Personal {
  first_name: string;
  last_name: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const PLACEHOLDER = /\{\{\s*(first_name|last_name)\s*\}\}/g;

function fill(template: string, person: Personal, escape: (value: string) => string): string {
  return template.replace(PLACEHOLDER, (_match, key: keyof Personal) => escape(person[key]));
}

/** The sanitised HTML of a Markdown body, placeholders still in it. */
export function markdownToSafeHtml(body: string): string {
  return sanitizeHtml(markdown.render(body), SANITIZE);
}

/** A mailing's content prepared once; `personalise` makes each recipient's parts from it cheaply. */
export interface PreparedContent {
  personalise(person: Personal): { subject: string; html: string; text: string };
}

export function prepareContent(subject: string, body: string): PreparedContent {
  const html = markdownToSafeHtml(body);
  return {
    personalise: (person) => ({
      // Header encoding is the composer's job; line breaks would start a new header, so they become spaces.
      subject: fill(subject, person, (value) => value).replace(/[\r\n]+/g, ' '),
      html: fill(html, person, escapeHtml),
      text: fill(body, person, (value) => value),
    }),
  };
}

/** The whole HTML document of a message (and of the preview's frame): no scripts, no styles, no remote content. */
export function htmlDocument(fragment: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"></head><body>${fragment}</body></html>`;
}

/** The bare address of a From ("Lightning Pay <no-reply@example.com>" → "no-reply@example.com"), for the envelope. */
export function envelopeAddress(from: string): string {
  const [first] = addressparser(from, { flatten: true });
  return first?.address || from;
}

/** "a.b@example.com" → "example.com", for Message-IDs under the sender's own domain. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = at >= 0 ? address.slice(at + 1).replace(/[>\s]/g, '') : '';
  return domain || 'localhost';
}

/**
 * The same (mailing, recipient) always gets the same Message-ID, so a copy delivered twice despite everything is
 * recognisable as the same message by the receiving side.
 */
export function messageIdFor(mailingId: number, recipientId: number, from: string): string {
  return `<mailing-${mailingId}.${recipientId}@${domainOf(from)}>`;
}

/** A test message is new every time: receivers that drop repeated Message-IDs must not drop the second test. */
export function testMessageId(from: string): string {
  return `<mailing-test.${randomUUID()}@${domainOf(from)}>`;
}

export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
}

/** The RFC 5322 bytes of one message (multipart/alternative: text, then HTML). */
export function composeMessage(message: OutgoingMessage): Promise<Buffer> {
  const composer = new MailComposer({
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: htmlDocument(message.html),
    messageId: message.messageId,
  });
  return composer.compile().build();
}
