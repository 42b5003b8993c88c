/** Before any test: compiles the toolkit to dist/, which the tests that run the `casi` command use. */
import { buildToolkit } from '../scripts/build.js';

export default async function setup(): Promise<void> {
  await buildToolkit();
}
