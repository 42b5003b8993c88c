// One fresh-process sample of the start-up benchmark: times import → first validation of a server event and
// prints `{ "ms": … }`. Usage: node bench/startup-probe.mjs generated|generated-events|ajv-one|ajv-all <bundle.mjs>
// <data.json>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [mode, bundle, dataFile] = process.argv.slice(2);
const start = performance.now();
const data = JSON.parse(readFileSync(dataFile, 'utf8'));
const module = await import(pathToFileURL(bundle).href);
const validate =
  mode === 'generated' || mode === 'generated-events'
    ? module.validateServerEvent
    : module.compileServerEvent(data.ir, mode === 'ajv-all');
if (!validate(data.event)) throw new Error(`${mode}: the example event is rejected`);
const ms = performance.now() - start;
console.log(JSON.stringify({ ms, sinceProcessStart: performance.now() }));
