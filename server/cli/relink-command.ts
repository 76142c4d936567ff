import { parseArgs } from 'node:util';
import { hasPermission } from '../../src/permissions/rules';
import type { Db } from '../db/db';
import { findStaffByEmail } from '../db/staff';
import { relinkStaffIdentity, RelinkError } from '../db/staff-identity';

export const RELINK_USAGE = `Usage:
  npm run staff:relink -- <staff e-mail> (--account <e-mail> | --uid <uid> | --unlink) --by <your e-mail>

Binds a staff member's row to another sign-in account (docs/api.md "Identity binding"), audited:
  --account <e-mail>  the account that now signs in with this e-mail address (looked up at the identity provider)
  --uid <uid>         that account's uid, as the Firebase console shows it
  --unlink            no account: the next sign-in with the staff e-mail, once verified, claims the row
  --by <e-mail>       who does it: an active staff member allowed to edit users (recorded in audit_log)`;

export interface RelinkArgs {
  email: string;
  target: { account: string } | { uid: string } | { unlink: true };
  by: string;
}

export function parseRelinkArgs(argv: string[]): RelinkArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        account: { type: 'string' },
        uid: { type: 'string' },
        unlink: { type: 'boolean' },
        by: { type: 'string' },
      },
    });
  } catch (error) {
    throw new RelinkError((error as Error).message);
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1) throw new RelinkError('Name exactly one staff e-mail.');
  const targets = [values.account !== undefined, values.uid !== undefined, values.unlink === true].filter(Boolean);
  if (targets.length !== 1) throw new RelinkError('Give exactly one of --account, --uid and --unlink.');
  if (!values.by) throw new RelinkError('Say who you are with --by <your e-mail>: the change is audited.');
  if (values.uid !== undefined && values.uid.trim() === '') throw new RelinkError('--uid is empty.');
  const target =
    values.account !== undefined
      ? { account: values.account }
      : values.uid !== undefined
        ? { uid: values.uid.trim() }
        : { unlink: true as const };
  return { email: positionals[0]!, target, by: values.by };
}

/** Looks a sign-in account up by e-mail at the identity provider. */
export type FindAccount = (email: string) => Promise<{ uid: string; emailVerified: boolean }>;

/**
 * Does what the command asks, as `args.by`: that person must be an active staff member allowed to edit users (`u`
 * edit, or a superuser), the same rule the users screen will apply. Returns a sentence for the terminal.
 */
export async function relinkAsAdministrator(
  db: Db,
  args: RelinkArgs,
  findAccount: FindAccount,
  now: Date = new Date(),
): Promise<string> {
  const actor = await findStaffByEmail(db, args.by);
  if (!actor || actor.status !== 'active' || !hasPermission(actor.record, 'u', 'edit')) {
    throw new RelinkError(`${args.by} is not an active staff member allowed to edit users.`);
  }
  let uid: string | null = null;
  let warning = '';
  if ('account' in args.target) {
    const account = await findAccount(args.target.account);
    uid = account.uid;
    if (!account.emailVerified) {
      warning = `\nNote: ${args.target.account} is not verified yet; it gets no access until it is.`;
    }
  } else if ('uid' in args.target) {
    uid = args.target.uid;
  }
  const { previousUid } = await relinkStaffIdentity(db, {
    email: args.email,
    uid,
    actor: { userId: actor.userId, email: actor.email },
    now,
  });
  if (previousUid === uid) return `${args.email} is already linked to ${uid ?? 'no account'}; nothing changed.`;
  const to = uid === null ? 'no account (the next verified sign-in claims it)' : `account ${uid}`;
  const audited = `Audited as done by ${actor.email}.`;
  return `${args.email}: linked to ${to}, previously ${previousUid ?? 'none'}. ${audited}${warning}`;
}
