import type { ParserOptions } from '@asyncapi/parser';

/** Parser options that replace the two structure rules by their precompiled fast path. */
export function structureRules(): ParserOptions;
