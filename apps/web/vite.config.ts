import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Static build served by the tracker server at `/` (apps/server/src/http/web-ui.ts).
export default defineConfig({
  plugins: [react()],
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // No inline module-preload polyfill script: the UI runs under a CSP without 'unsafe-inline'.
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:5000",
      "/ajax-api": "http://127.0.0.1:5000",
      "/get-artifact": "http://127.0.0.1:5000",
      "/model-versions": "http://127.0.0.1:5000",
    },
  },
});
