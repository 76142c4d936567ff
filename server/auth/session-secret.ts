import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const MIN_SECRET_BYTES = 32;

/**
 * The HS256 key for session tokens. Production sets SESSION_SECRET; in development a random key is generated once
 * and kept in .data/session-secret, so restarting the API does not sign everyone out.
 */
export async function loadSessionSecret(options: {
  configured: string | undefined;
  secretFile: string;
  allowGenerated: boolean;
}): Promise<Uint8Array> {
  if (options.configured) {
    const secret = new TextEncoder().encode(options.configured);
    if (secret.byteLength < MIN_SECRET_BYTES) {
      throw new Error(`SESSION_SECRET must be at least ${MIN_SECRET_BYTES} bytes long.`);
    }
    return secret;
  }
  if (!options.allowGenerated) throw new Error('SESSION_SECRET is required when NODE_ENV=production.');
  try {
    const stored = (await readFile(options.secretFile, 'utf8')).trim();
    if (stored.length >= MIN_SECRET_BYTES) return new TextEncoder().encode(stored);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const generated = randomBytes(48).toString('base64url');
  await mkdir(path.dirname(options.secretFile), { recursive: true });
  await writeFile(options.secretFile, `${generated}\n`, { mode: 0o600 });
  return new TextEncoder().encode(generated);
}
