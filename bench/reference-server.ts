/**
 * Runs the reference server for the HTTP benchmarks: `createApp` (requests validated; responses too unless
 * `BENCH_VALIDATE_RESPONSES=0`, the default of `casi serve`), the configuration from the environment
 * (`CASI_API_KEYS`, …), on 127.0.0.1 and an OS-chosen port; prints `{"port":…}` once listening, closes on SIGTERM.
 */
import { createApp } from '../reference/app.js';
import { loadConfig } from '../reference/config.js';

const { config } = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
const server = createApp({ config, validateResponses: process.env.BENCH_VALIDATE_RESPONSES !== '0' });
await server.app.listen({ host: '127.0.0.1', port: 0 });
const address = server.app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 }));
process.once('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
