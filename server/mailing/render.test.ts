import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { composeMessage, envelopeAddress, markdownToSafeHtml, messageIdFor, prepareContent } from './render';
import { withoutAddresses } from './smtp-link';

const ALLOWED_TAGS = new Set(['p', 'br', 'strong', 'em', 'a', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'blockquote', 'code', 'pre', 'hr']);

/**
 * What must never survive into a message or the preview, read as a browser would parse it: only allowlisted tags,
 * no attribute but a link's href (http, https or mailto) and rel; no script, handler, style, source or raw HTML.
 * Text that merely looks like markup is escaped, so it parses as text and passes.
 */
function assertHarmless(html: string): void {
  const problems: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (!ALLOWED_TAGS.has(name)) problems.push(`tag <${name}>`);
      for (const [attribute, value] of Object.entries(attributes)) {
        if (name === 'a' && attribute === 'rel') continue;
        if (name === 'a' && attribute === 'href' && /^(https?:|mailto:)/i.test(value)) continue;
        problems.push(`${name}[${attribute}="${value}"]`);
      }
    },
    oncomment(comment) {
      problems.push(`comment ${comment}`);
    },
  });
  parser.write(html);
  parser.end();
  expect(problems, html).toEqual([]);
}

const HOSTILE: [string, string][] = [
  ['script tag', '<script>alert(1)</script>'],
  ['script split over lines', '<scr\nipt>alert(1)</script>'],
  ['javascript: link', '[click](javascript:alert(1))'],
  ['javascript: with entities', '[click](&#106;avascript:alert(1))'],
  ['JaVaScRiPt: mixed case', '[click](JaVaScRiPt:alert(1))'],
  ['vbscript: link', '[x](vbscript:msgbox(1))'],
  ['data: link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['data: image', '![x](data:image/svg+xml;base64,PHN2Zy8+)'],
  ['remote image (tracking)', '![x](https://evil.example/pixel.gif)'],
  ['event handler in raw HTML', '<p onclick="alert(1)">hi</p>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['iframe', '<iframe src="https://evil.example"></iframe>'],
  ['style attribute', '<span style="background:url(javascript:alert(1))">x</span>'],
  ['autolink javascript', '<javascript:alert(1)>'],
  ['reference link to javascript', '[a][1]\n\n[1]: javascript:alert(1)'],
  ['html comment', '<!-- <script>alert(1)</script> -->'],
  ['protocol-relative link', '[x](//evil.example)'],
  ['file link', '[x](file:///etc/passwd)'],
];

describe('Markdown to sanitised HTML', () => {
  it.each(HOSTILE)('neutralises %s', (_name, markdown) => {
    const html = markdownToSafeHtml(markdown);
    assertHarmless(html);
    // The text may remain (escaped, harmless); never as a link or markup.
    expect(html).not.toMatch(/href="(?!https?:|mailto:)/i);
  });

  it('keeps what Markdown is for: emphasis, lists, headings and http/https/mailto links', () => {
    const html = markdownToSafeHtml('# News\n\n**bold** *it*\n\n- a\n- b\n\n[site](https://example.com) [mail](mailto:x@example.com)');
    expect(html).toContain('<h1>News</h1>');
    expect(html).toContain('<strong>bold</strong> <em>it</em>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">site</a>');
    expect(html).toContain('href="mailto:x@example.com"');
  });

  it('never lets hostile text through, whatever is combined (property)', () => {
    const fragment = fc.oneof(
      fc.constantFrom(...HOSTILE.map(([, markdown]) => markdown), '**', '[', '](', ')', '<', '>', '"', "'", '\n', '`', '{{first_name}}'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        assertHarmless(markdownToSafeHtml(parts.join('')));
      }),
      { numRuns: 300 },
    );
  });
});

describe('personalisation', () => {
  it('puts names in as text: escaped in the HTML, as they are in the subject and the plain text', () => {
    const content = prepareContent('Hi {{first_name}}', 'Dear **{{first_name}} {{ last_name }}**, see [x](https://example.com)');
    const parts = content.personalise({ first_name: '<img src=x onerror=alert(1)>', last_name: '"O\'Neil" & co' });
    assertHarmless(parts.html);
    expect(parts.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(parts.html).toContain('&#34;O&#39;Neil&#34; &#38; co');
    expect(parts.subject).toBe('Hi <img src=x onerror=alert(1)>');
    expect(parts.text).toBe('Dear **<img src=x onerror=alert(1)> "O\'Neil" & co**, see [x](https://example.com)');
  });

  it('keeps a name with line breaks from starting a new header', () => {
    const parts = prepareContent('Hi {{first_name}}', 'x').personalise({ first_name: 'A\r\nBcc: victim@example.com', last_name: '' });
    expect(parts.subject).toBe('Hi A Bcc: victim@example.com');
  });
});

describe('the message', () => {
  it('is multipart text + HTML with the deterministic Message-ID and no script anywhere', async () => {
    const parts = prepareContent('Hello {{first_name}}', '<script>x</script> **Hi** {{first_name}}').personalise({
      first_name: 'Ada',
      last_name: 'L',
    });
    const raw = (
      await composeMessage({ from: 'LP <no-reply@lp.test>', to: 'ada@example.test', ...parts, messageId: messageIdFor(7, 42, 'LP <no-reply@lp.test>') })
    ).toString();
    expect(raw).toContain('Message-ID: <mailing-7.42@lp.test>');
    expect(raw).toContain('Content-Type: multipart/alternative');
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw).toContain('Content-Type: text/html');
    expect(parts.html).not.toMatch(/<script/i);
    assertHarmless(parts.html);
    expect(envelopeAddress('LP <no-reply@lp.test>')).toBe('no-reply@lp.test');
  });

  it('keeps addresses out of stored SMTP errors', () => {
    expect(withoutAddresses('550 5.1.1 <ada@example.test>: Recipient address rejected')).toBe(
      '550 5.1.1 <address>: Recipient address rejected',
    );
  });
});
