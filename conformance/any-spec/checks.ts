/**
 * The checks every answer of any spec gets: no 5xx, a declared status, the declared content type and a body its
 * schema accepts; an invalid request must be refused with a 4xx.
 */
import type { IrOperation, IrResponse } from '../../generator/ir/model.js';
import { validatedResponseSchema } from '../../generator/schema/operations.js';
import { mediaKind } from '../../templates/shared/media.js';
import { mediaType, type WireResponse } from '../wire.js';
import type { SpecSchemas } from './schemas.js';

/** The checks, in the order the summary lists them. */
export const ANY_SPEC_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
] as const;

export type AnySpecCheck = (typeof ANY_SPEC_CHECKS)[number];

/** One check's verdict on one answer: passed when `problem` is undefined. */
export interface Verdict {
  readonly check: AnySpecCheck;
  readonly problem?: string;
}

/** The declared response of `op` that answers `status`: the exact code, then `4XX`/`5XX`, then `default`. */
export function declaredResponse(op: IrOperation, status: number): IrResponse | undefined {
  const exact = op.responses.find((r) => r.status === String(status));
  const range = op.responses.find((r) => r.status.toUpperCase() === `${Math.floor(status / 100)}XX`);
  return exact ?? range ?? op.responses.find((r) => r.status === 'default');
}

/** The verdicts on `response` to a request of `op`; `invalid` says the request was one the server must refuse. */
export function checkAnswer(
  schemas: SpecSchemas,
  op: IrOperation,
  response: WireResponse,
  invalid: boolean,
): Verdict[] {
  if (response.error !== undefined) return [{ check: 'not_a_server_error', problem: response.text }];
  const verdicts: Verdict[] = [
    {
      check: 'not_a_server_error',
      ...(response.status >= 500 ? { problem: `a server error: ${response.status}` } : {}),
    },
  ];
  if (invalid) {
    const refused = response.status >= 400 && response.status < 500;
    verdicts.push({
      check: 'negative_data_rejection',
      ...(refused ? {} : { problem: `an invalid request was not refused with a 4xx: ${response.status}` }),
    });
  }
  const declared = declaredResponse(op, response.status);
  if (declared === undefined) {
    const listed = op.responses.map((r) => r.status).join(', ');
    verdicts.push({
      check: 'status_code_conformance',
      problem: `status ${response.status} is not declared (${listed})`,
    });
    return verdicts;
  }
  verdicts.push({ check: 'status_code_conformance' });
  const contentProblem = contentTypeProblem(declared, response);
  verdicts.push({ check: 'content_type_conformance', ...(contentProblem ? { problem: contentProblem } : {}) });
  const schema = validatedResponseSchema(op, declared, schemas.components);
  if (schema !== undefined && contentProblem === undefined && response.text !== '') {
    const kind = mediaKind(response.contentType);
    const value = kind === 'json' ? parsed(response.text) : response.text;
    const problem =
      value === NOT_JSON
        ? 'the body is not JSON'
        : kind === 'json' || kind === 'text'
          ? schemas.problem(schema, value)
          : undefined;
    verdicts.push({
      check: 'response_schema_conformance',
      ...(problem ? { problem: `the ${response.status} body breaks its schema: ${problem}` } : {}),
    });
  }
  return verdicts;
}

const NOT_JSON = Symbol('not JSON');

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** What is wrong with the answer's content type, given the declared response (a body where none is declared too). */
function contentTypeProblem(declared: IrResponse, response: WireResponse): string | undefined {
  if (declared.contentType === undefined)
    return response.text === '' ? undefined : `a body where ${declared.status} declares none`;
  if (response.text === '' && response.contentType === '') return undefined;
  const wanted = mediaType(declared.contentType);
  const got = response.contentType;
  const [type, subtype] = wanted.split('/');
  const matches = got === wanted || wanted === '*/*' || (subtype === '*' && got.startsWith(`${type}/`));
  return matches ? undefined : `content type ${got || '(none)'}, declared ${wanted}`;
}
