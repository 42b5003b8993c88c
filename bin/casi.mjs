#!/usr/bin/env node
// The `casi` command: runs the CLI compiled to dist/ by `npm run build` (which `npm install` runs).
import { existsSync } from 'node:fs';
import module from 'node:module';

const cli = new URL('../dist/generator/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('casi: the toolkit is not built; run `npm run build` (npm install runs it)\n');
  process.exit(1);
}
// Node 22.1+ keeps compiled code between runs; older versions have no such cache.
module.enableCompileCache?.();
await import(cli.href);
