/**
 * Two paths that differ only in their parameters' names (GitHub's description has such pairs): a warning when their
 * methods differ, and both operations are generated and served; an error when they share a method.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStrict } from './compile-strict.js';
import { generateAlone, serveGenerated, workDirectory } from './generate-alone.js';

const work = workDirectory('identical-paths');

const parameter = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const answer = { '200': { description: 'the parameters', content: { 'application/json': { schema: {} } } } };

/** `/users/{username}/attestations/{…}` twice, with a GET on one and `second` on the other. */
function attestations(second: 'delete' | 'get'): object {
  return {
    openapi: '3.1.0',
    info: { title: 'Attestations', version: '1.0.0' },
    paths: {
      '/users/{username}/attestations/{subject_digest}': {
        get: {
          operationId: 'listAttestations',
          parameters: [parameter('username'), parameter('subject_digest')],
          responses: answer,
        },
      },
      '/users/{username}/attestations/{attestation_id}': {
        [second]: {
          operationId: 'deleteAttestation',
          parameters: [parameter('username'), parameter('attestation_id')],
          responses: answer,
        },
      },
    },
  };
}

type Client = { users: Record<string, (...args: string[]) => Promise<unknown>> };

describe('two paths that differ only in their parameter names', () => {
  it('with different methods: a warning, and both operations compile and are served with their own names', async () => {
    const { out, errors, diagnostics } = await generateAlone(work, 'methods-differ', 'openapi', attestations('delete'));
    expect(errors, diagnostics.join('\n')).toBe(false);
    expect(diagnostics).toEqual([
      expect.stringMatching(
        /:\d+:\d+ warning the path \/users\/\{username\}\/attestations\/\{attestation_id\} is the path \/users\/\{username\}\/attestations\/\{subject_digest\} with other parameter names; their methods differ, so both are generated \(openapi\/no-identical-paths\)/,
      ),
    ]);
    writeFileSync(
      join(out, 'uses.ts'),
      [
        "import { createClient } from './src/client.gen.js';",
        "const client = createClient({ baseUrl: 'http://127.0.0.1' });",
        "export const uses = [client.users.listAttestations('u', 'sha'), client.users.deleteAttestation('u', '7')];",
      ].join('\n'),
    );
    expect(compileStrict(out, ['uses.ts', 'src/**/*.ts'])).toEqual([]);

    const handlers = {
      listAttestations: (req: { params: unknown }) => ({ status: 200, body: req.params }),
      deleteAttestation: (req: { params: unknown }) => ({ status: 200, body: req.params }),
    };
    const { baseUrl, createClient } = await serveGenerated<Client>(out, handlers);
    const client = createClient({ baseUrl, maxRetries: 0 });
    expect(await client.users.listAttestations?.('octo', 'sha256:ab')).toEqual({
      username: 'octo',
      subject_digest: 'sha256:ab',
    });
    expect(await client.users.deleteAttestation?.('octo', '7')).toEqual({ username: 'octo', attestation_id: '7' });
  }, 120_000);

  it('with a method in common: an error naming it, and nothing generated', async () => {
    const { errors, diagnostics, files } = await generateAlone(work, 'method-shared', 'openapi', attestations('get'));
    expect(errors).toBe(true);
    expect(files).toEqual([]);
    expect(diagnostics).toEqual([
      expect.stringMatching(
        / error the path .* with other parameter names, and both have GET \(openapi\/no-identical-paths\)/,
      ),
    ]);
  }, 60_000);
});
