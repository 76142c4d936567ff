/**
 * Where to go after sign-in. Only paths of this console are accepted, so a crafted link cannot send a freshly
 * signed-in user to another site.
 */
export function safeRedirectTarget(target: unknown): string {
  if (typeof target !== 'string') return '/';
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  if (target === '/login' || target.startsWith('/login?')) return '/';
  return target;
}
