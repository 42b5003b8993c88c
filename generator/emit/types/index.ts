/** Emits `types.gen.ts`: the REST types (rest.ts), a named alias per schema, and the event unions. */
import type { StatementStructures } from 'ts-morph';
import type { Ir, IrEvent } from '../../ir/model.js';
import { schemaCodeNames } from '../../names.js';
import {
  docText,
  emitTypeScript,
  literal,
  StructureKind,
  type TypeScriptFile,
  VariableDeclarationKind,
} from '../shared/ts.js';

/** Envelope schemas replaced by the discriminated event unions of the same name. */
const ENVELOPES = { server: 'ServerEvent', client: 'ClientEvent' } as const;

/** Builds the types file from the IR and `rest`, the REST types of `ir.openapi` (rest.ts, run where it is loaded). */
export function emitTypes(ir: Ir, rest: string): TypeScriptFile[] {
  // The REST types are printed already; only the declarations added here go through ts-morph's structures.
  const statements: StatementStructures[] = [];
  addSchemaAliases(statements, ir);
  if (ir.errorCodes.length > 0) addErrorCodes(statements, ir);
  for (const direction of ['server', 'client'] as const) {
    const events = ir.events.filter((e) => e.direction === direction);
    if (events.length > 0) addEvents(statements, events, direction);
  }
  return [emitTypeScript('src/types.gen.ts', statements, rest)];
}

/**
 * `export type X = components['schemas']['X']` for every component schema but the envelopes of events (replaced by
 * their unions), under its code name (`Links-Booking` → `LinksBooking`).
 */
function addSchemaAliases(file: StatementStructures[], ir: Ir): void {
  const envelopes = new Set(ir.events.map((e) => e.envelopeSchema));
  const code = schemaCodeNames(ir);
  for (const { name, schema } of ir.schemas) {
    if (envelopes.has(name)) continue;
    const description = typeof schema.description === 'string' ? schema.description : `The \`${name}\` schema.`;
    file.push({
      kind: StructureKind.TypeAlias,
      name: code.get(name) ?? name,
      isExported: true,
      type: `components['schemas'][${literal(name)}]`,
      docs: [docText(description)],
    });
  }
}

/** The error-code table as a value, for clients that branch on `Error.code`. */
function addErrorCodes(file: StatementStructures[], ir: Ir): void {
  file.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every `Error.code` of this version with its HTTP status and whether it is transient.'],
    declarations: [
      {
        name: 'errorCodes',
        initializer: `{\n${ir.errorCodes
          .map((c) => `  ${c.code}: { status: ${c.status}, transient: ${c.transient} },`)
          .join('\n')}\n} as const satisfies Record<ErrorCode, { status: number; transient: boolean }>`,
      },
    ],
  });
}

/** Event types of one direction: one envelope type per message, the union, and the type → event/payload maps. */
function addEvents(file: StatementStructures[], events: readonly IrEvent[], direction: 'server' | 'client'): void {
  const envelope = ENVELOPES[direction];
  const prefix = direction === 'server' ? 'Server' : 'Client';
  file.push({
    kind: StructureKind.TypeAlias,
    name: `${envelope}Envelope`,
    isExported: true,
    type: `Omit<components['schemas'][${literal(envelope)}], 'payload'>`,
    docs: [`The fields every ${direction} event carries besides its payload.`],
  });
  for (const event of events) {
    file.push({
      kind: StructureKind.TypeAlias,
      name: event.name,
      isExported: true,
      type: `${envelope}Envelope & { payload: ${event.payloadSchema} }`,
      docs: [docText(`\`${event.type}\`${event.experimental ? ' (experimental)' : ''}: ${event.summary}`)],
    });
  }
  file.push({
    kind: StructureKind.TypeAlias,
    name: envelope,
    isExported: true,
    type: events.map((e) => e.name).join(' | '),
    docs: [`Any ${direction} event, discriminated on \`payload.type\`.`],
  });
  file.push({
    kind: StructureKind.Interface,
    name: `${prefix}EventMap`,
    isExported: true,
    docs: [`Each ${direction} event type tag and its event.`],
    properties: events.map((e) => ({ name: literal(e.type), type: e.name })),
  });
  file.push({
    kind: StructureKind.Interface,
    name: `${prefix}EventPayloadMap`,
    isExported: true,
    docs: [`Each ${direction} event type tag and its payload.`],
    properties: events.map((e) => ({ name: literal(e.type), type: e.payloadSchema })),
  });
  file.push({
    kind: StructureKind.TypeAlias,
    name: `${prefix}EventType`,
    isExported: true,
    type: `keyof ${prefix}EventMap`,
    docs: [`Every ${direction} event type tag.`],
  });
  file.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`Every ${direction} event type tag, sorted.`],
    declarations: [
      {
        name: `${direction}EventTypes`,
        initializer: `[${events.map((e) => literal(e.type)).join(', ')}] as const satisfies readonly ${prefix}EventType[]`,
      },
    ],
  });
}
