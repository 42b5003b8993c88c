import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/src/client.gen.js';
import { createApp } from '../../reference/app.js';
import { loadConfig } from '../../reference/config.js';
import { launchChromium } from './chromium.js';

const ROOT = join(import.meta.dirname, '../..');
const API_KEY = 'sk_browser_test';

/** Serves the page and its bundle's chunks (`files`, by name) from another origin than the API (so CORS is tested). */
async function servePage(files: ReadonlyMap<string, string>, entry: string): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><html><head><title>CASI browser client</title></head><body><pre id="out">CASI browser client</pre><script type="module" src="/${entry}"></script></body></html>`;
  const server = createServer((request, response) => {
    const script = files.get((request.url ?? '').slice(1));
    if (script !== undefined) response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe('the generated client in Chromium, with only an ephemeral token', () => {
  let api: Awaited<ReturnType<typeof createApp>>;
  let apiUrl = '';
  let page: { url: string; server: Server };
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  /** The chunks that hold the session code and the event validators, which a page loads only when it uses them. */
  let lazyChunks: string[] = [];

  beforeAll(async () => {
    const { config } = loadConfig({ CASI_API_KEYS: API_KEY, CASI_DATABASE_URL: 'memory:' });
    api = await createApp({ config, validateResponses: true });
    apiUrl = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const bundle = await build({
      entryPoints: [join(import.meta.dirname, 'page-entry.ts')],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: join(import.meta.dirname, 'out'),
      write: false,
      minify: true,
      metafile: true,
    });
    const outputs = Object.entries(bundle.metafile.outputs);
    lazyChunks = outputs
      .filter(([, output]) =>
        Object.keys(output.inputs).some((input) => /validators\.events|client\/websocket/.test(input)),
      )
      .map(([path]) => basename(path));
    // The page's own module: every `import()` target is an entry point of the metafile too.
    const entry = outputs.find(([, output]) => output.entryPoint?.endsWith('page-entry.ts'))?.[0] ?? '';
    page = await servePage(
      new Map(bundle.outputFiles.map((file) => [basename(file.path), file.text])),
      basename(entry),
    );
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    page?.server.close();
    await api?.close();
  });

  it('chats over the WebSocket session and reads the SSE stream, sending no API key', async () => {
    const client = createClient({ baseUrl: apiUrl, apiKey: API_KEY });
    const agent = await client.conversationalAgents.create({
      name: 'Browser agent',
      config: {
        personas: [{ name: 'Ava', voice: { id: 'Female 1' } }],
        voice: { boosted_keywords: [] },
        runtime: { model: 'provider_a/gpt-4.1-mini', prompt: { text: 'Be brief.' }, variables: [] },
        tool: { tools: [], transfers: [] },
        language: { default_language: 'English', supported_languages: ['English'] },
        channel: { is_voicemail_enabled: false },
      },
    });
    const conversation = await client.conversations.create({ agent_id: agent.id, channel: { type: 'chat_realtime' } });

    const tab = await browser.context.newPage();
    const requests: { url: string; authorization: string | undefined }[] = [];
    const sockets: string[] = [];
    tab.on('request', (request) =>
      requests.push({ url: request.url(), authorization: request.headers().authorization }),
    );
    tab.on('websocket', (socket) => sockets.push(socket.url()));
    await tab.goto(page.url);
    await tab.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
    const loaded = () => requests.map((r) => basename(new URL(r.url).pathname));
    expect(lazyChunks.length).toBeGreaterThan(0);
    expect(loaded().filter((file) => lazyChunks.includes(file))).toEqual([]);
    const result = await tab.evaluate(
      (input) =>
        (globalThis as unknown as { casiChat(i: typeof input): Promise<Record<string, unknown>> }).casiChat(input),
      {
        baseUrl: apiUrl,
        conversationId: conversation.id,
        token: conversation.channel.token,
        text: 'Hello from Chromium',
      },
    );
    await tab.evaluate(
      (text) => {
        const out = document.getElementById('out');
        if (out) out.textContent = text;
      },
      JSON.stringify(result, null, 2),
    );
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await tab.screenshot({ path: join(ROOT, 'test-artifacts/browser-client.png') });

    expect(lazyChunks.filter((file) => !loaded().includes(file))).toEqual([]);
    expect(result.hasWebSocket).toBe(true);
    expect(result.reply).toBe('You said: Hello from Chromium');
    expect(result.tooLong).toBe('MessageTooLongError');
    const types = result.streamedTypes as string[];
    expect(types.slice(0, 2)).toEqual(['conversation.setup', 'conversation.started']);
    expect(types.at(-1)).toBe('conversation.ended');
    expect(types).toContain('user.message.received');
    expect(result.streamedIds).toEqual(result.sessionIds);
    expect(result.messages).toEqual([{ text: 'You said: Hello from Chromium', complete: true }]);

    const toApi = requests.filter((r) => r.url.startsWith(apiUrl) && !r.url.startsWith(page.url));
    expect(toApi.length).toBeGreaterThan(0);
    for (const request of toApi) {
      expect(request.authorization, request.url).toBeUndefined();
      expect(request.url).toContain(`token=${encodeURIComponent(conversation.channel.token)}`);
    }
    expect(sockets.length).toBeGreaterThan(0);
    for (const url of sockets)
      expect(url).toMatch(/token=.*service_version=2025-06-19|service_version=2025-06-19.*token=/);
  }, 60_000);
});
