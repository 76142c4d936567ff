import * as z from 'zod/mini';
import { emailAddress } from './email';

/**
 * The body of the permissions lookup (POST /auth/permissions; its path and answer are in auth.ts). Apart from auth.ts:
 * the console sends the signed-in e-mail without this schema, and auth.ts is in the entry chunk that /login and /list
 * pay for (150 KB), which must not carry the e-mail rules the admin screens share (email.ts).
 */
export const permissionsLookupBodySchema = z.object({ email: emailAddress() });
