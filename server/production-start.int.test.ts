import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './config';
import { BACKENDS, type Backend } from './testing/test-database';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A production environment as a deployment would set it, on the given database. */
function productionEnv(backend: Backend, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    FIREBASE_PROJECT_ID: 'lpa-production',
    SESSION_SECRET: 'production-secret-production-secret-0123456789',
    CORS_ORIGINS: 'https://admin.example.com',
    ...(backend === 'postgres' ? { DATABASE_URL: inject('databaseUrl') } : { PGLITE_DIR: 'memory://' }),
  };
}

/** Runs `server/main.ts` until it exits or answers /health; never leaves it running. */
function start(
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<{ exitCode: number | null; output: string; answered: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['server/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    const poll = setInterval(() => {
      fetch(`http://127.0.0.1:${port}/health`)
        .then((response) => {
          answered = response.ok;
          if (answered) child.kill('SIGTERM');
        })
        .catch(() => undefined);
    }, 200);
    const deadline = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('exit', (exitCode) => {
      clearInterval(poll);
      clearTimeout(deadline);
      resolve({ exitCode, output, answered });
    });
  });
}

describe.each(BACKENDS)('the API in production on %s', (backend) => {
  // With the emulator variable set, firebase-admin accepts unsigned tokens: one naming a superuser's e-mail would be
  // a superuser session.
  it('refuses to start with the Auth emulator configured, naming the variable', async () => {
    const port = await freePort();
    const env = { ...productionEnv(backend, port), FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
    const result = await start(env, port);
    expect(result.answered).toBe(false);
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/FIREBASE_AUTH_EMULATOR_HOST must not be set with NODE_ENV=production/);
  });
});
