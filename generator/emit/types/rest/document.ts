/**
 * The REST types of an OpenAPI document: `paths`, `webhooks`, `components`, `$defs` and `operations`, printed as
 * openapi-typescript prints them with casi's options (alphabetized, `Blob` for binary data, an empty object schema as
 * `Record<string, unknown>`).
 */
import { withDoc } from './comments.js';
import type { Context } from './context.js';
import { scanDiscriminators } from './discriminators.js';
import {
  factory,
  type Json,
  NEVER,
  pointerOf,
  printStatements,
  property,
  record,
  refType,
  resolveRef,
  STRING,
  type Statement,
  sortedEntries,
  type TypeNode,
  ts,
} from './nodes.js';
import { headerType, parameterType, pathItemType, requestBodyType, responseType } from './operations.js';
import { binaryAsBlob, schemaType } from './schema.js';

type Transform = (value: Json, context: Context, path: string) => TypeNode;

/** The component sections, in the order they are printed, with the transform of an entry of each. */
const COMPONENTS: readonly [string, Transform][] = [
  ['schemas', schemaType],
  ['responses', responseType],
  ['parameters', parameterType],
  ['requestBodies', requestBodyType],
  ['headers', headerType],
  ['pathItems', pathItemType],
];

/** Prints the types of `document` (a self-contained OpenAPI document, changed where discriminators tag schemas). */
export function printRestTypes(document: Json): string {
  const context: Context = {
    discriminators: scanDiscriminators(document),
    footer: [],
    operations: [],
    resolve: (ref) => resolveRef(document, ref),
  };
  const roots: [string, () => TypeNode][] = [
    ['paths', () => pathsType(document.paths, context)],
    ['webhooks', () => webhooksType(document.webhooks, context)],
    ['components', () => componentsType(document.components, context)],
    ['$defs', () => schemaType(document.$defs, context, pointerOf(['$defs']))],
  ];
  const statements: Statement[] = roots.map(([name, type]) =>
    document[name] && typeof document[name] === 'object' ? root(name, type()) : emptyRoot(name),
  );
  for (const item of context.footer) statements.push(item === 'operations' ? operationsInterface(context) : item);
  if (!context.footer.includes('operations')) statements.push(emptyRoot('operations'));
  return printStatements(statements);
}

/** `export interface name { … }` of a type literal with members, else `export type name = Record<string, never>`. */
function root(name: string, type: TypeNode): Statement {
  const members = ts.isTypeLiteralNode(type) ? type.members : undefined;
  if (!members?.length) return emptyRoot(name);
  return factory.createInterfaceDeclaration(exported(), name, undefined, undefined, members);
}

function emptyRoot(name: string): Statement {
  return factory.createTypeAliasDeclaration(exported(), name, undefined, record(STRING, NEVER));
}

function operationsInterface(context: Context): Statement {
  return factory.createInterfaceDeclaration(exported(), 'operations', undefined, undefined, context.operations);
}

function exported() {
  return [factory.createModifier(ts.SyntaxKind.ExportKeyword)];
}

function pathsType(paths: Json, context: Context): TypeNode {
  const members = sortedEntries(paths)
    .filter(([, item]) => item && typeof item === 'object')
    .map(([url, item]) =>
      '$ref' in item
        ? withDoc(item, property(url, refType(item.$ref)))
        : property(url, pathItemType(item, context, pointerOf(['paths', url]))),
    );
  return factory.createTypeLiteralNode(members);
}

function webhooksType(webhooks: Json, context: Context): TypeNode {
  const members = sortedEntries(webhooks).map(([name, item]) =>
    property(name, pathItemType(item, context, pointerOf(['webhooks', name]))),
  );
  return factory.createTypeLiteralNode(members);
}

function componentsType(components: Json, context: Context): TypeNode {
  const sections = COMPONENTS.map(([section, transform]) => {
    const entries = sortedEntries(components[section]).map(([name, item]) => {
      const path = pointerOf(['components', section, name]);
      const declared = transform(item, context, path);
      return withDoc(item, property(name, binaryAsBlob(item) ?? declared));
    });
    return property(section, entries.length > 0 ? factory.createTypeLiteralNode(entries) : NEVER);
  });
  return factory.createTypeLiteralNode(sections);
}
