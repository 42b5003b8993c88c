/**
 * The built reference in Debian Chromium with the network closed: Redoc hydrates from the embedded bundle and shows
 * the Inferred badges and the code samples; the events page renders, samples included. Screenshots go to
 * `test-artifacts/`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs } from '../../generator/docs/build.js';
import { registerDocs } from '../../reference/docs/routes.js';
import { launchChromium } from '../browser/chromium.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
/** The one external address Redoc still names: its logo in the "API docs by" link, which hides itself on error. */
const REDOC_LOGO = /^https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg$/;

describe('the built reference in Chromium, offline', () => {
  let out = '';
  let app: FastifyInstance;
  let url = '';
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'casi-docs-browser-'));
    await buildDocs({ openapi: join(ROOT, 'spec/openapi.yaml'), asyncapi: join(ROOT, 'spec/asyncapi.yaml'), out });
    app = Fastify();
    registerDocs(app, { dir: out });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    rmSync(out, { recursive: true, force: true });
  });

  /** A tab that may reach only this server; every other request is aborted and recorded. */
  async function offlineTab() {
    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 1400, height: 900 });
    const external: string[] = [];
    await tab.route('**/*', (route) => {
      const target = route.request().url();
      if (target.startsWith(url) || target.startsWith('data:')) return route.continue();
      external.push(target);
      return route.abort();
    });
    return { tab, external };
  }

  it('Redoc hydrates without a CDN and shows an inferred operation with its badge', async () => {
    const { tab, external } = await offlineTab();
    await tab.goto(`${url}/docs/rest.html`);
    await tab.getByText('Conversational agents', { exact: true }).first().click({ timeout: 15_000 });
    await tab.getByText('Read a conversational agent').first().click({ timeout: 10_000 });
    const heading = tab.getByRole('heading', { name: 'Read a conversational agent' });
    await heading.waitFor({ timeout: 10_000 });
    await tab.getByText('Inferred', { exact: true }).first().waitFor({ timeout: 10_000 });
    expect(await tab.getByText('Inferred', { exact: true }).count()).toBeGreaterThan(1);
    // The operation's code samples: the curl command first, the TypeScript call chosen in the samples' menu.
    const curl = "curl 'http://127.0.0.1:4010/conversational_agents/ca_7Qk2Lm9Xa'";
    await tab.getByText(curl).first().waitFor({ timeout: 10_000 });
    await tab.getByText('curl', { exact: true }).first().click({ timeout: 10_000 });
    await tab.getByText('TypeScript', { exact: true }).first().click({ timeout: 10_000 });
    const call = "await client.conversationalAgents.retrieve('ca_7Qk2Lm9Xa')";
    await tab.getByText(call).first().waitFor({ timeout: 10_000 });
    await tab.screenshot({ path: join(ARTIFACTS, 'docs-rest.png') });
    expect(external.filter((u) => !REDOC_LOGO.test(u))).toEqual([]);
    await tab.close();
  }, 60_000);

  it('the events page renders every section offline', async () => {
    const { tab, external } = await offlineTab();
    await tab.goto(`${url}/docs/events.html#event-agent-message-delta`);
    await tab.locator('[data-event-type="agent.message.delta"] pre[data-example]').waitFor({ timeout: 10_000 });
    expect(await tab.locator('article[data-event-type]').count()).toBeGreaterThan(10);
    expect(await tab.locator('.badge.inferred').first().isVisible()).toBe(true);
    const sample = tab.locator('[data-event-type="agent.message.delta"] pre[data-sample]').first();
    expect(await sample.isVisible()).toBe(true);
    expect(await sample.textContent()).toContain("session.on('agent.message.delta', (event) => {");
    await tab.screenshot({ path: join(ARTIFACTS, 'docs-events.png') });
    expect(external).toEqual([]);
    await tab.close();
  }, 60_000);
});
