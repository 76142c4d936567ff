import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { contentSecurityPolicy } from './src/app/content-security-policy';

/** Production builds carry a Content-Security-Policy built from the same configuration the bundle uses. */
function cspMetaTag(env: Record<string, string>): Plugin {
  return {
    name: 'lpa-content-security-policy',
    apply: 'build',
    transformIndexHtml(html) {
      const policy = contentSecurityPolicy({
        apiBase: env.VITE_API_BASE ?? '',
        authEmulatorUrl: env.VITE_FIREBASE_AUTH_EMULATOR_URL ?? '',
      });
      return html.replace('<!-- csp -->', `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  return {
    plugins: [
      tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/routeTree.gen.ts' }),
      react(),
      cspMetaTag(env),
    ],
    server: { host: '127.0.0.1', port: 5173, strictPort: true },
    preview: { host: '127.0.0.1', port: 4173, strictPort: false },
    build: { target: 'es2022', sourcemap: true },
    worker: { format: 'es' },
  };
});
