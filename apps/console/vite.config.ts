import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const arcoEs = path.resolve(import.meta.dirname, '../../node_modules/@arco-design/web-react/es');
const arcoFolder: Record<string, string> = { Row: 'Grid', Col: 'Grid' };

/**
 * Adds the stylesheet of each Arco component a module imports, so the bundle carries only the
 * CSS of components in use (DESIGN.md: per-component CSS, not the full arco.min.css).
 */
function arcoStyles(): Plugin {
  return {
    name: 'mowerline:arco-styles',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.tsx?$/.test(id)) return null;
      const styles = new Set<string>();
      for (const match of code.matchAll(/import\s*\{([^}]+)\}\s*from\s*['"]@arco-design\/web-react['"]/g)) {
        for (const raw of match[1]!.split(',')) {
          const name = raw.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim();
          if (!name || raw.trim().startsWith('type ')) continue;
          const folder = arcoFolder[name] ?? name;
          if (existsSync(path.join(arcoEs, folder, 'style/css.js'))) styles.add(folder);
        }
      }
      if (styles.size === 0) return null;
      const imports = [...styles].map((f) => `import '@arco-design/web-react/es/${f}/style/css.js';`).join('\n');
      return { code: `${imports}\n${code}`, map: null };
    },
  };
}

/** Writes dist/version.json, which the navigation guard compares with the version it stored. */
function versionFile(): Plugin {
  const version = process.env.CONSOLE_VERSION ?? new Date().toISOString();
  return {
    name: 'mowerline:version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version }) });
    },
  };
}

export default defineConfig({
  plugins: [arcoStyles(), react(), versionFile()],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:8080', ws: true } },
  },
  build: { chunkSizeWarningLimit: 800 },
});
