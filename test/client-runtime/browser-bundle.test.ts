/** The client runtime bundles for browsers (esbuild, platform browser) without Node built-ins. */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('browser bundle', () => {
  it('bundles templates/client/index.ts for the browser', async () => {
    const result = await build({
      entryPoints: ['templates/client/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => path.startsWith('node:') || /node_modules\/ws\/lib\//.test(path))).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).not.toMatch(/from ["']node:/);
    expect(code).toContain('globalThis.WebSocket');
  });
});
