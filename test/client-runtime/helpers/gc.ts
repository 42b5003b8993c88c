/** A full garbage collection from within a test: V8's `gc`, exposed on demand. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

export const collectGarbage = runInNewContext('gc') as () => void;
