import { defineConfig } from 'vite';

// esbuild compiles the JSX (React's automatic runtime); no React plugin is needed for a build.
export default defineConfig({
  root: 'src',
  base: '/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    // Hashed file names under /assets/: the gateway serves them as immutable.
    assetsDir: 'assets',
    // No inline <script> or data: module preload polyfill: the CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
