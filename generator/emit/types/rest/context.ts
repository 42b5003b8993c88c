/** What the REST type transforms share while they walk one document. */
import type { Discriminators } from './discriminators.js';
import { declarations, type Json, type Statement, type TypeElement } from './nodes.js';

export interface Context {
  readonly discriminators: Discriminators;
  /** Printed after the roots, in the order first needed: the `operations` interface and helper types. */
  readonly footer: ('operations' | Statement)[];
  /** The members of `operations`, one per operation with an `operationId`. */
  readonly operations: TypeElement[];
  /** The value a local `$ref` names (followed to the end), or undefined. */
  resolve(ref: string): Json;
}

const WITH_REQUIRED = 'type WithRequired<T, K extends keyof T> = T & { [P in K]-?: T[P] };';

/** Puts the `WithRequired` helper type in the footer, once. */
export function needWithRequired(context: Context): void {
  const present = context.footer.some(
    (statement) =>
      statement !== 'operations' && (statement as { name?: { text?: string } }).name?.text === 'WithRequired',
  );
  if (!present) context.footer.push(...declarations(WITH_REQUIRED));
}
