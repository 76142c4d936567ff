/**
 * What `zod/mini` resolves to in the console's builds and dev server (vite.config.ts `resolve.alias`): zod/mini
 * itself, after switching zod's global configuration to jitless. With JIT on, zod probes `new Function` to find out
 * whether it may compile parsers; under the console's Content-Security-Policy (no 'unsafe-eval') the probe fails
 * quietly but the browser reports a violation on every page. Setting it here, in the module every schema module
 * imports, runs it before any schema exists, whatever order the bundler gives the chunks; the enforcement worker's
 * bundle gets it the same way.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4/mini';
