import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'vite';
import { chunkSize, staticClosure, type ChunkSize, type Manifest } from './bundle';

/**
 * The JavaScript a console page needs before it is usable, from a production build's manifest: the entry
 * (index.html) and the render chunks of the route files on the way to the page, with everything they import
 * statically. Used by bench:screen (figures beside the typing times) and by `npm test`'s budget step
 * (scripts/js-budgets.ts), so that both measure the same thing.
 */

/** The budgets, KB gz (1000 bytes): the officers' phones for /login and /list, any admin route (docs/development.md "Tests"). */
export const JS_BUDGETS_KB = { login: 150, list: 150, adminRoute: 250 } as const;

/** The route files on the way to each officer page (TanStack Router splits each route's component into its own chunk). */
export const ROUTE_CHAINS = {
  login: ['src/routes/__root.tsx', 'src/routes/login.tsx'],
  list: ['src/routes/__root.tsx', 'src/routes/_authenticated.tsx', 'src/routes/_authenticated/(enforcement)/list.tsx'],
} as const;

/** Admin sections: every route file under _authenticated's section groups but the officers' /list (and the home page, index). */
export const ADMIN_ROUTES_DIR = 'src/routes/_authenticated';

/**
 * The console built for production with its own vite.config.ts into `outDir`, with the manifest these figures read.
 * `sourcemap: 'hidden'` for bench:screen's package attribution (the app's own build publishes none).
 */
export async function buildConsole(repo: string, outDir: string, options: { sourcemap?: 'hidden' } = {}): Promise<void> {
  await build({
    configFile: path.join(repo, 'vite.config.ts'),
    root: repo,
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true, chunkSizeWarningLimit: 10_000, sourcemap: options.sourcemap ?? false },
  });
}

/** Split parts of a route a page needs to render (not its error, not-found or pending components). */
const RENDER_SPLITS = new Set(['component', 'loader']);

export interface PageScripts {
  chunks: ChunkSize[];
  gzBytes: number;
  bytes: number;
}

export function routeRoots(manifest: Manifest, chain: readonly string[]): string[] {
  const roots = ['index.html'];
  for (const key of Object.keys(manifest)) {
    const [file, query] = key.split('?');
    if (file === undefined || !chain.includes(file) || query === undefined) continue;
    const split = new URLSearchParams(query).get('tsr-split');
    if (split !== null && split.split('---').some((part) => RENDER_SPLITS.has(part))) roots.push(key);
  }
  // A route file that is not split (e.g. __root with an inline component) is part of the entry chunk already.
  return roots;
}

export async function closureSizes(outDir: string, manifest: Manifest, roots: readonly string[]): Promise<PageScripts> {
  const keys = staticClosure(manifest, roots);
  const chunks = await Promise.all(keys.map((key) => chunkSize(outDir, key, manifest[key]!.file)));
  return { chunks, gzBytes: chunks.reduce((sum, c) => sum + c.gzBytes, 0), bytes: chunks.reduce((sum, c) => sum + c.bytes, 0) };
}

/** Every admin route's JavaScript before it is usable: the same static closure as /list's, route by route. */
export async function measureAdminRoutes(repo: string, outDir: string, manifest: Manifest): Promise<(PageScripts & { route: string })[]> {
  // Route files sit in one group folder per section (`(users)/user-config.tsx`); `-components` folders are not routes.
  const files = (await readdir(path.join(repo, ADMIN_ROUTES_DIR), { recursive: true }))
    .filter((file) => file.endsWith('.tsx') && !file.includes('-components') && !['list.tsx', 'index.tsx'].includes(path.basename(file)))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const chain = ['src/routes/__root.tsx', 'src/routes/_authenticated.tsx', `${ADMIN_ROUTES_DIR}/${file}`];
      return { route: path.basename(file).replace(/\.tsx$/, ''), ...(await closureSizes(outDir, manifest, routeRoots(manifest, chain))) };
    }),
  );
}
