import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A free TCP port on the loopback interface (asked of the OS, then released), for servers that need a number. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
