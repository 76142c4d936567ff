import { Link } from '@tanstack/react-router';

export function AccessDenied() {
  return (
    <section className="notice-screen" aria-labelledby="access-denied-title">
      <h1 id="access-denied-title">Access denied</h1>
      <p>Your account does not have permission to open this page. Ask an administrator if you need access.</p>
      <Link to="/">Go to the home page</Link>
    </section>
  );
}
