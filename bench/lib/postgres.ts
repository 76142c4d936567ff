import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findPostgresBinDir } from '../../test/postgres-binaries';
import { freePort } from './free-port';

/**
 * A throwaway PostgreSQL cluster for a benchmark, started as the integration tests start theirs
 * (test/setup/postgres.ts): initdb into a temporary folder (as the postgres user when run as root), durability off
 * (fsync, synchronous_commit, full_page_writes: the cluster is thrown away), otherwise PostgreSQL's defaults.
 */
export interface ThrowawayPostgres {
  /** postgresql://postgres@127.0.0.1:<port>/<database> */
  url: string;
  /** The `postgres --version` line, for the report. */
  version: string;
  stop(): void;
}

export async function startThrowawayPostgres(database = 'lpa_bench', settings: readonly string[] = []): Promise<ThrowawayPostgres> {
  const binDir = findPostgresBinDir();
  if (!binDir) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found: install PostgreSQL 15 (see docs/development.md "Tests").');
  const workDir = mkdtempSync(path.join(tmpdir(), 'lpa-bench-pg-'));
  const dataDir = path.join(workDir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(workDir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const command = path.join(binDir, tool);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    return execFileSync(file, argv, { stdio: 'pipe', cwd: workDir, encoding: 'utf8' });
  };
  const port = await freePort();
  const stop = () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Not started, or already stopped.
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  };
  try {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
    const options = [
      `-h 127.0.0.1 -p ${port} -k ${workDir}`,
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
      ...settings.map((setting) => `-c ${setting}`),
    ].join(' ');
    run('pg_ctl', ['-D', dataDir, '-l', path.join(workDir, 'postgres.log'), '-o', options, '-w', 'start']);
    const version = run('postgres', ['--version']).trim();
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    return { url: `postgresql://postgres@127.0.0.1:${port}/${database}`, version, stop };
  } catch (error) {
    stop();
    const stderr = (error as { stderr?: Buffer | string }).stderr?.toString() ?? '';
    throw new Error(`Could not start a throwaway PostgreSQL cluster: ${(error as Error).message}\n${stderr}`);
  }
}
