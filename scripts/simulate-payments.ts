/**
 * `npm run simulate:payments`: keeps payments flowing into the running development API (`npm start`) so that the
 * real-time dashboard moves. Each payment goes through POST /dev/payments (loopback only, present with DEV_SEED=1),
 * at a random one of the locations, $2–$60, card mostly. Ctrl-C stops it.
 *
 *   npm run simulate:payments                       # 1 payment a second, every location
 *   npm run simulate:payments -- --rate 5 --locations 1,2 --count 100
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '1' },
    locations: { type: 'string', default: '1,2,3,4,5,6' },
    count: { type: 'string' },
    api: { type: 'string', default: process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}` },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`npm run simulate:payments -- [--rate N] [--locations 1,2] [--count N] [--api URL]
  --rate N          payments per second (default 1)
  --locations 1,2   location ids to pay at (default 1–6, the demo locations)
  --count N         stop after N payments (default: until Ctrl-C)
  --api URL         the API (default http://127.0.0.1:$PORT, 8787)`);
  process.exit(0);
}

const rate = Number(values.rate);
const locations = values.locations.split(',').map(Number);
const count = values.count === undefined ? Infinity : Number(values.count);
if (!(rate > 0 && rate <= 100) || locations.some((id) => !Number.isInteger(id) || id <= 0) || !(count > 0)) {
  console.error('--rate must be 0–100 a second, --locations a list of location ids, --count a positive number.');
  process.exit(2);
}
const METHODS = ['card', 'card', 'card', 'apple_pay', 'google_pay', 'cash', 'account'] as const;
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

let made = 0;
let failed = 0;
const timer = setInterval(() => {
  if (made + failed >= count) {
    clearInterval(timer);
    console.log(`${made} payments made${failed ? `, ${failed} refused` : ''}.`);
    return;
  }
  const payment = {
    locationId: pick(locations),
    amountCents: 200 + Math.floor(Math.random() * 5800),
    method: pick(METHODS),
    minutes: 30 * (1 + Math.floor(Math.random() * 8)),
  };
  made += 1;
  fetch(`${values.api}/dev/payments`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payment) })
    .then(async (response) => {
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      const { data } = (await response.json()) as { data: { transaction_id: number } };
      console.log(`#${data.transaction_id} at location ${payment.locationId}: $${(payment.amountCents / 100).toFixed(2)} (${payment.method})`);
    })
    .catch((error: unknown) => {
      made -= 1;
      failed += 1;
      console.error(`Payment refused: ${error instanceof Error ? error.message : String(error)}`);
      if (failed >= 5 && made === 0) {
        console.error(`Is \`npm start\` running? POST ${values.api}/dev/payments needs the development API (DEV_SEED=1).`);
        process.exit(1);
      }
    });
}, 1000 / rate);
