import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the integration tests find PostgreSQL's server binaries (initdb, pg_ctl) for their throwaway cluster
 * (test/setup/postgres.ts), and where `npm test` looks before it starts (scripts/prerequisites.ts): pg_config's
 * bindir, Debian's /usr/lib/postgresql/<version>/bin (newest first), then PATH.
 */
export function findPostgresBinDir(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // pg_config is optional (it comes with the -dev package on some systems).
  }
  const versionsDir = '/usr/lib/postgresql';
  if (existsSync(versionsDir)) {
    const versions = readdirSync(versionsDir).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(versionsDir, version, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return candidates.find(hasServerBinaries);
}

function hasServerBinaries(dir: string): boolean {
  return existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'));
}
