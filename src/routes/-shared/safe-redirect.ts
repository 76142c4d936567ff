/**
 * Where to go after sign-in (`home`, the user's landing page, when no page asked: see homePath). Only paths of this console are accepted, so a crafted link cannot send a freshly
 * signed-in user to another site.
 */
export function safeRedirectTarget(target: unknown, home = '/'): string {
  if (typeof target !== 'string') return home;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return home;
  if (target === '/' || target === '/login' || target.startsWith('/login?')) return home;
  return target;
}

/**
 * A deliberate logout (the Logout link), as opposed to a session that expired or was revoked: the next sign-in on this
 * device may be someone else, so /login is opened without the page to return to
 * (docs/decisions/0004-landing-and-return-after-sign-in.md).
 */
let deliberateLogout = false;
export function markDeliberateLogout(): void {
  deliberateLogout = true;
}
/** Whether the sign-out now under way was a deliberate logout; reading it resets it. */
export function takeDeliberateLogout(): boolean {
  const was = deliberateLogout;
  deliberateLogout = false;
  return was;
}
