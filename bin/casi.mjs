#!/usr/bin/env node
// The `casi` command: runs the TypeScript CLI from a cached esbuild bundle (built on first use), so no build step
// is needed and no TypeScript loader runs in the process.
import { importCompiled } from './compiled.mjs';

await importCompiled('generator/cli.ts');
