#!/usr/bin/env node
// The `casi` command: runs the TypeScript CLI from a cached esbuild bundle (built on first use), so no build step
// is needed and no TypeScript loader runs in the process.
import { enableCompileCache } from './compile-cache.mjs';
import { importCompiled } from './compiled.mjs';

enableCompileCache();
await importCompiled('generator/cli.ts');
