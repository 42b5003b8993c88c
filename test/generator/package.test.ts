import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'casi-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');

describe('the generated package', () => {
  it('builds, packs, installs into a fresh project and imports there (ESM and TypeScript)', () => {
    // Build and pack a copy, so that dist/ never appears in the checkout.
    const pkg = join(work, 'pkg');
    cpSync(join(ROOT, 'generated'), pkg, {
      recursive: true,
      filter: (src) => !src.includes('node_modules') && !src.includes('/dist'),
    });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], pkg);
    run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], pkg);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball ?? '')], app);

    writeFileSync(
      join(app, 'check.mjs'),
      `import { validateServerEvent } from '@casi/conversational-agent-service/validators';
import { createClient, SERVICE_VERSION } from '@casi/conversational-agent-service/client';
const event = { id: 'ev_1', created_at: '2025-07-02T14:00:00Z', agent_id: 'ca_1@v1', livemode: true,
  conversation_id: 'conv_1', experimental: false, payload: { type: 'conversation.started' } };
const bad = { ...event, payload: { type: 'agent.message.delta' } };
const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
console.log(JSON.stringify({ valid: validateServerEvent(event), invalid: validateServerEvent(bad),
  pointers: validateServerEvent.errors?.map((e) => e.pointer), version: SERVICE_VERSION,
  resources: Object.keys(client).sort() }));
`,
    );
    const out = JSON.parse(run(process.execPath, ['check.mjs'], app));
    expect(out.valid).toBe(true);
    expect(out.invalid).toBe(false);
    expect(out.pointers).toContain('/payload/text_delta');
    expect(out.version).toBe('2025-06-19');
    expect(out.resources).toEqual([
      'conversationalAgents',
      'conversations',
      'core',
      'customers',
      'proceduralAgents',
      'procedures',
      'raw',
    ]);

    writeFileSync(
      join(app, 'use.ts'),
      `import type { ServerEvent, CreateConversationRequest } from '@casi/conversational-agent-service/types';
import { createClient } from '@casi/conversational-agent-service/client';
import type { Handlers } from '@casi/conversational-agent-service/server';
export function text(event: ServerEvent): string {
  return event.payload.type === 'agent.message.completed' ? event.payload.text : '';
}
export const body: CreateConversationRequest = { agent_id: 'ca_1', channel: { type: 'chat_realtime' } };
export const start = (c: ReturnType<typeof createClient>) => c.conversations.create(body);
export type H = Handlers['getConversation'];
// @ts-expect-error a conversation needs a channel
export const wrong: CreateConversationRequest = { agent_id: 'ca_1' };
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          lib: ['ES2023', 'DOM'],
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    symlinkSync(join(ROOT, 'node_modules/fastify'), join(app, 'node_modules/fastify'), 'dir');
    const typecheck = (() => {
      try {
        return run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
      } catch (error) {
        return `tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`;
      }
    })();
    expect(typecheck).toBe('');
  }, 240_000);
});
