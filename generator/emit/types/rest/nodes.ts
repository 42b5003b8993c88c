/**
 * Type nodes, names and references for the REST types, built with ts-morph's TypeScript (loaded already to print the
 * emitters' files). The shapes are openapi-typescript's (MIT), so that `paths`, `operations` and `components` keep
 * the form openapi-fetch's helpers read.
 */
import type * as TsMorph from 'ts-morph';
import { requirePackage } from '../../../require-package.js';

export const { ts } = requirePackage('ts-morph') as typeof TsMorph;
export type Node = TsMorph.ts.Node;
export type TypeNode = TsMorph.ts.TypeNode;
export type TypeElement = TsMorph.ts.TypeElement;
export type Statement = TsMorph.ts.Statement;

export const factory = ts.factory;
const Kind = ts.SyntaxKind;

export const BOOLEAN = factory.createKeywordTypeNode(Kind.BooleanKeyword);
export const NEVER = factory.createKeywordTypeNode(Kind.NeverKeyword);
export const NULL = factory.createLiteralTypeNode(factory.createNull());
export const NUMBER = factory.createKeywordTypeNode(Kind.NumberKeyword);
export const STRING = factory.createKeywordTypeNode(Kind.StringKeyword);
export const UNKNOWN = factory.createKeywordTypeNode(Kind.UnknownKeyword);
export const QUESTION = factory.createToken(Kind.QuestionToken);

/** A JSON value as it is read from a document. */
// biome-ignore lint/suspicious/noExplicitAny: documents are read field by field, as openapi-typescript reads them
export type Json = any;

/** The primitive keywords `dedupe` keeps once. */
const PRIMITIVES = new Set<number>([
  Kind.BooleanKeyword,
  Kind.NeverKeyword,
  Kind.NullKeyword,
  Kind.NumberKeyword,
  Kind.StringKeyword,
  Kind.UndefinedKeyword,
]);

/** Whether `type` is a primitive keyword, or a literal of one (`null`). */
export function isPrimitive(type: TypeNode | undefined): boolean {
  if (!type) return true;
  const literal = (type as { literal?: TypeNode }).literal;
  return PRIMITIVES.has(type.kind) || (literal !== undefined && isPrimitive(literal));
}

/** Drops repeated primitive keywords (`string | string`); literals and references stay. */
function dedupe(types: readonly TypeNode[]): TypeNode[] {
  const seen = new Set<number>();
  const kept: TypeNode[] = [];
  for (const type of types) {
    const node = (type as { literal?: Node }).literal ?? type;
    if (!('text' in node)) {
      if (seen.has(node.kind)) continue;
      if (isPrimitive(type)) seen.add(node.kind);
    }
    kept.push(type);
  }
  return kept;
}

export function union(types: readonly TypeNode[]): TypeNode {
  if (types.length === 0) return NEVER;
  if (types.length === 1) return types[0] as TypeNode;
  return factory.createUnionTypeNode(dedupe(types));
}

export function intersection(types: readonly TypeNode[]): TypeNode {
  if (types.length === 0) return NEVER;
  if (types.length === 1) return types[0] as TypeNode;
  return factory.createIntersectionTypeNode(dedupe(types));
}

export function nullable(type: TypeNode): TypeNode {
  return factory.createUnionTypeNode([type, NULL]);
}

export function record(key: TypeNode, value: TypeNode): TypeNode {
  return factory.createTypeReferenceNode('Record', [key, value]);
}

export function omit(type: TypeNode, keys: readonly string[]): TypeNode {
  return factory.createTypeReferenceNode('Omit', [type, factory.createUnionTypeNode(keys.map(literalType))]);
}

/** The literal type of a JSON value (`const`, `enum` members). */
export function literalType(value: unknown): TypeNode {
  if (typeof value === 'string') return factory.createIdentifier(JSON.stringify(value)) as unknown as TypeNode;
  if (typeof value === 'number') return factory.createLiteralTypeNode(numberLiteral(value));
  if (typeof value === 'boolean')
    return factory.createLiteralTypeNode(value ? factory.createTrue() : factory.createFalse());
  if (value === null) return NULL;
  if (Array.isArray(value)) {
    return value.length === 0
      ? factory.createArrayTypeNode(NEVER)
      : factory.createTupleTypeNode(value.map((v) => literalType(v)));
  }
  if (typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => property(k, literalType(v)));
    return members.length > 0 ? factory.createTypeLiteralNode(members) : record(STRING, NEVER);
  }
  return UNKNOWN;
}

function numberLiteral(value: number) {
  return value < 0
    ? factory.createPrefixUnaryExpression(Kind.MinusToken, factory.createNumericLiteral(Math.abs(value)))
    : factory.createNumericLiteral(value);
}

/** A property name: a number, an identifier, or a string literal. */
function propertyName(name: string) {
  if (String(Number(name)) === name && name[0] !== '-') return factory.createNumericLiteral(name);
  return /^[A-Za-z_$][A-Za-z_$0-9]*$/.test(name) ? factory.createIdentifier(name) : factory.createStringLiteral(name);
}

/** A property signature `name?: type` (optional when `optional`), `readonly` when asked. */
export function property(name: string, type: TypeNode, optional = false, readonly = false) {
  const modifiers = readonly ? [factory.createModifier(Kind.ReadonlyKeyword)] : [];
  return factory.createPropertySignature(modifiers, propertyName(name), optional ? QUESTION : undefined, type);
}

/** `name?: never`, the member openapi-fetch reads as "not there". */
export function absent(name: string) {
  return property(name, NEVER, true);
}

/** An index signature `[key: string]: type`. */
export function stringIndex(key: string, type: TypeNode) {
  const parameter = factory.createParameterDeclaration(
    undefined,
    undefined,
    factory.createIdentifier(key),
    undefined,
    STRING,
  );
  return factory.createIndexSignature([], [parameter], type);
}

/** Parses the source of declarations (the helper types put after the roots). */
export function declarations(source: string): readonly Statement[] {
  return ts.createSourceFile('helpers.ts', source, ts.ScriptTarget.ESNext).statements;
}

/** Prints the statements as a file. */
export function printStatements(statements: readonly Statement[]): string {
  const file = ts.createSourceFile('types.ts', '', ts.ScriptTarget.ESNext, false, ts.ScriptKind.TS);
  const printed = factory.updateSourceFile(file, statements);
  return ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: false }).printFile(printed);
}

/** The entries of an object sorted by key, numbers by value (`200` before `1000`). */
const collator = new Intl.Collator('en-us', { numeric: true });
export function sortedEntries(value: Json): [string, Json][] {
  return Object.entries(value ?? {}).sort(([a], [b]) => collator.compare(a, b));
}

/** The tokens of a `$ref`'s JSON pointer, unescaped. */
export function refTokens(ref: string): string[] {
  const pointer = ref.split('#/')[1] ?? '';
  return pointer
    .split('/')
    .map((token) => decode(token.replace(/~1/g, '/').replace(/~0/g, '~')))
    .filter((token) => token !== '');
}

function decode(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

function escapeToken(token: string | number): string | number {
  return typeof token === 'number' ? token : token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON pointer `#/…` of the parts; a part that is itself a pointer adds its tokens. */
export function pointerOf(parts: readonly (string | number | undefined)[]): string {
  let pointer = '#';
  for (const part of parts) {
    if (part === undefined || part === '') continue;
    const tokens = refTokens(String(part));
    if (tokens.length > 0) for (const token of tokens) pointer += `/${escapeToken(token)}`;
    else pointer += `/${escapeToken(part)}`;
  }
  return pointer;
}

/** The value a local `$ref` names, followed through further references; undefined when it names nothing. */
export function resolveRef(document: Json, ref: string, visited: readonly string[] = []): Json {
  const tokens = refTokens(ref);
  if (tokens.length === 0) return undefined;
  let node = document;
  for (const token of tokens) {
    if (node && typeof node === 'object' && node[token]) node = node[token];
    else return undefined;
  }
  if (node && typeof node === 'object' && typeof node.$ref === 'string') {
    return visited.includes(node.$ref) ? undefined : resolveRef(document, node.$ref, [...visited, node.$ref]);
  }
  return node;
}

/**
 * The type a `$ref` names: `components["schemas"]["Pet"]`, deeper tokens as further indexes (`properties` skipped);
 * a reference into a list of parameters ends at the parameter's location and name.
 */
export function refType(ref: string, resolved?: Json): TypeNode {
  const tokens = refTokens(ref);
  if (tokens.length === 0) throw new Error(`Error parsing $ref: ${ref}. Is this a valid $ref?`);
  const isParameter = Boolean(resolved && !resolved.$ref && resolved.in);
  let type: TypeNode = factory.createTypeReferenceNode(factory.createIdentifier(String(tokens[0])));
  type = indexed(type, tokens.slice(1, 3));
  const rest = tokens.slice(3);
  rest.forEach((token, index) => {
    if (token === 'properties') return;
    if (isParameter && index === rest.length - 1) type = indexed(type, [resolved.in, resolved.name]);
    else type = indexed(type, [token]);
  });
  return type;
}

function indexed(type: TypeNode, tokens: readonly string[]): TypeNode {
  return tokens.reduce<TypeNode>(
    (node, token) =>
      factory.createIndexedAccessTypeNode(node, factory.createLiteralTypeNode(factory.createStringLiteral(token))),
    type,
  );
}
