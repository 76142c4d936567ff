import type { MailingPreview } from '../../../../contract/mailing';
import { formatCount } from '../../../../ui/format';

/**
 * The recipient count and a few messages as their recipients will see them. The HTML is the server's, sanitised there
 * (no markdown library in the browser); it is shown in an iframe with `sandbox=""` (no scripts, no forms, its own
 * origin), so even a sanitiser miss could not act on the console.
 */
export function MailingPreviewPanel({ preview }: { preview: MailingPreview }) {
  return (
    <section aria-labelledby="mailing-preview-title" className="mailing-preview">
      <h2 id="mailing-preview-title">Preview</h2>
      <p role="status">
        <strong>{formatCount(preview.recipientCount)}</strong> recipients
        {preview.optedOutCount > 0 && ` (${formatCount(preview.optedOutCount)} opted out, not mailed)`}.
      </p>
      {preview.samples.map((sample, index) => (
        <article key={index} className="mailing-sample" aria-label={`Sample for ${sample.name || 'a recipient'}`}>
          <h3>
            To {sample.name || 'a recipient'}: {sample.subject}
          </h3>
          <iframe title={`Message for ${sample.name || 'a recipient'}`} sandbox="" srcDoc={sample.html} className="mailing-frame" />
          <details>
            <summary>Plain-text part</summary>
            <pre className="mailing-text">{sample.text}</pre>
          </details>
        </article>
      ))}
    </section>
  );
}
