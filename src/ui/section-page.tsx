import type { ReactNode } from 'react';

/** A section's page frame: its title and, until the section's screen is built, a short note saying so. */
export function SectionPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="section-page" aria-labelledby="section-title">
      <h1 id="section-title">{title}</h1>
      {children ?? <p className="muted">This section's screen is on its way.</p>}
    </section>
  );
}
