import type { z } from 'zod';

/** `[2].permissions.e.v[0]`, `email`: where in a document a zod issue points, written the way people read paths. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** One line per issue, prefixed with its path: `email: Invalid email address`, `[2].email is required`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const where = formatIssuePath(issue.path);
    // zod says "Invalid input: expected string, received undefined" for a missing field.
    if (where && /received undefined$/.test(issue.message)) return `${where} is required`;
    return where ? `${where}: ${issue.message}` : issue.message;
  });
}
