// The packages of the document validators (packages.cjs), from one bundle of them (bin/compiled.mjs).
import { requireBundled } from '../../bin/compiled.mjs';

/** @type {typeof import('./packages.cjs')} */
export const packages = await requireBundled('generator/check/packages.cjs');
