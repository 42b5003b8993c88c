/** Where a project sets the rules of its OpenAPI document: a `redocly.yaml` beside it, which also asks for strict checks. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The `redocly.yaml` beside an OpenAPI document. */
export function redoclyConfigOf(openapiFile: string): string {
  return join(dirname(openapiFile), 'redocly.yaml');
}

/** Whether the project of this OpenAPI document sets its rules: then every finding is as severe as they say. */
export function strictChecks(openapiFile: string): boolean {
  return existsSync(redoclyConfigOf(openapiFile));
}
