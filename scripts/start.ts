/**
 * `npm start`: the whole product on this machine — the Firebase Auth emulator, the reference API on an embedded
 * PGlite database (created, migrated and seeded on first start under .data/), and the console in Vite's dev server.
 * One Ctrl-C stops all three.
 */
import { concurrently } from 'concurrently';
import { DEMO_ACCOUNTS } from '../server/db/seed/demo-accounts';
import { waitForUrl } from './wait-for-url';

const projectId = process.env.FIREBASE_PROJECT_ID ?? 'demo-lpa';
const apiPort = process.env.PORT ?? '8787';
const consoleUrl = 'http://127.0.0.1:5173';
const emulatorHost = '127.0.0.1:9099';
/** MailDev: catches every message the API sends (Mailing) and shows them on a web page. */
const mailDev = { smtpPort: '1025', webUrl: 'http://127.0.0.1:1080' };

const { result } = concurrently(
  [
    {
      name: 'auth',
      prefixColor: 'yellow',
      command: `firebase emulators:start --only auth --project ${projectId}`,
    },
    {
      name: 'api',
      prefixColor: 'cyan',
      command: 'tsx server/main.ts',
      env: {
        PORT: apiPort,
        DEV_SEED: '1',
        FIREBASE_PROJECT_ID: projectId,
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
        CORS_ORIGINS: `${consoleUrl},http://localhost:5173`,
        MAIL_SMTP_HOST: '127.0.0.1',
        MAIL_SMTP_PORT: mailDev.smtpPort,
      },
    },
    {
      name: 'mail',
      prefixColor: 'green',
      command: `maildev --ip 127.0.0.1 --smtp ${mailDev.smtpPort} --web 1080 --silent`,
    },
    {
      name: 'console',
      prefixColor: 'magenta',
      command: 'vite',
      env: {
        VITE_API_BASE: `http://127.0.0.1:${apiPort}`,
        VITE_FIREBASE_PROJECT_ID: projectId,
        VITE_FIREBASE_AUTH_EMULATOR_URL: `http://${emulatorHost}`,
      },
    },
  ],
  { prefix: 'name', killOthersOn: ['failure', 'success'], handleInput: false },
);

Promise.all([
  waitForUrl(`http://${emulatorHost}/`),
  waitForUrl(`http://127.0.0.1:${apiPort}/health`),
  waitForUrl(consoleUrl),
  waitForUrl(`${mailDev.webUrl}/email`),
])
  .then(() => {
    const rows = DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(26)} ${a.password.padEnd(16)} ${a.description}`);
    console.log(
      [
        '',
        `Lightning Pay Admin is running: ${consoleUrl}`,
        '',
        'Demo accounts (e-mail, password, what it may do):',
        ...rows,
        '',
        `Mail catcher (MailDev): ${mailDev.webUrl} (every message the API sends, e.g. Mailing, lands there)`,
        '',
        'Press Ctrl-C to stop everything.',
        '',
      ].join('\n'),
    );
  })
  .catch((error: unknown) => console.error(String(error)));

result.then(
  () => process.exit(0),
  () => process.exit(1),
);
