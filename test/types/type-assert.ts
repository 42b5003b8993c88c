/** Compile-time assertions for the type tests: `Expect<Equal<A, B>>` fails to compile unless A and B are identical. */

/** `true` when `A` and `B` are the same type (not merely assignable), else `false`. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `T` is `true`. */
export type Expect<T extends true> = T;
