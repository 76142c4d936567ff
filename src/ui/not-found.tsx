import { Link, type LinkProps } from '@tanstack/react-router';
import { SectionPage } from './section-page';

/** Where a page that cannot show its record leads: the section's list, with the search it came from when it has one. */
export interface BackLink {
  to: LinkProps['to'];
  label: string;
  search?: LinkProps['search'];
}

const HOME: BackLink = { to: '/', label: 'Go to the home page' };

/** A record or page that is not there: says so, and offers the way back (the section's list, else the home page). */
export function NotFound({
  title = 'Not found',
  message,
  back = HOME,
}: {
  title?: string;
  message: string;
  back?: BackLink | undefined;
}) {
  return (
    <SectionPage title={title}>
      <p>{message}</p>
      <p>
        <Link to={back.to} search={back.search}>
          {back.label}
        </Link>
      </p>
    </SectionPage>
  );
}
