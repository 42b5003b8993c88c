/** Response validation (for tests of servers): undeclared statuses, invalid bodies and invalid stream events. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { HttpError, type ResponseProblem } from '../../templates/server/index.js';
import { expectError, goodHeaders, startServer, type TestHandlers, type TestServer } from './fixture.js';
import { readUntil, within } from './sse-io.js';

/** Answers according to `?kind=`. */
const reply: TestHandlers['reply'] = (req) => {
  switch (req.query.kind) {
    case 'invalid':
      return { status: 200, body: { id: 'nope', name: 1 } };
    case 'undeclared':
      return { status: 418, body: { code: 'teapot', transient: false, message: 'I am a teapot.' } };
    case 'throw-declared':
      throw new HttpError(404, 'not_found', 'Not here.');
    case 'throw-undeclared':
      throw new HttpError(409, 'conflict', 'Conflict.');
    default:
      return { status: 200, body: { id: 'th_1', name: 'fine' } };
  }
};
const thingEvents: TestHandlers['thingEvents'] = async (_req, stream) => {
  await stream.sendJson({ n: 'one' }, { id: 'ev_1' });
  stream.close();
  return undefined;
};
const thingSession: TestHandlers['thingSession'] = async (_req, socket) => {
  await socket.sendJson({ n: 'one' });
  socket.close();
};

const problems: ResponseProblem[] = [];
let collecting: TestServer;
let strict: TestServer;
let lenient: TestServer;

beforeAll(async () => {
  const handlers = { reply, thingEvents, thingSession };
  [collecting, strict, lenient] = await Promise.all([
    startServer({ handlers, validateResponses: true, onResponseInvalid: (problem) => problems.push(problem) }),
    startServer({ handlers, validateResponses: true }),
    startServer({ handlers }),
  ]);
});
afterAll(() => Promise.all([collecting, strict, lenient].map((server) => server.close())));

function call(server: TestServer, kind: string) {
  return fetch(`${server.url}/reply?kind=${kind}`, { method: 'POST', headers: goodHeaders });
}

/** The problems reported while `run` ran. */
async function reported(run: () => Promise<unknown>) {
  problems.length = 0;
  await run();
  return problems.map(({ kind, status, issues, route }) => ({ kind, status, issues, operationId: route.operationId }));
}

describe('with a collecting onResponseInvalid', () => {
  it('reports nothing for a valid reply or a declared HttpError', async () => {
    expect(await reported(() => call(collecting, 'valid'))).toEqual([]);
    expect(await reported(() => call(collecting, 'throw-declared'))).toEqual([]);
  });

  it('reports an invalid body with pointers, and still sends it', async () => {
    let status = 0;
    const found = await reported(async () => {
      status = (await call(collecting, 'invalid')).status;
    });
    expect(status).toBe(200);
    expect(found).toEqual([
      {
        kind: 'invalid_body',
        status: 200,
        operationId: 'reply',
        issues: [
          { pointer: '/id', message: 'must match pattern "^th_"', keyword: 'pattern' },
          { pointer: '/name', message: 'must be string', keyword: 'type' },
        ],
      },
    ]);
  });

  it('reports an undeclared status, returned or thrown', async () => {
    const returned = await reported(() => call(collecting, 'undeclared'));
    expect(returned).toEqual([{ kind: 'undeclared_status', status: 418, operationId: 'reply', issues: [] }]);
    const thrown = await reported(() => call(collecting, 'throw-undeclared'));
    expect(thrown).toEqual([{ kind: 'undeclared_status', status: 409, operationId: 'reply', issues: [] }]);
  });

  it('reports an SSE event that breaks the event schema', async () => {
    const found = await reported(async () => {
      const response = await fetch(`${collecting.url}/things/th_1/events`, { headers: goodHeaders });
      await readUntil(response, () => false);
    });
    expect(found).toEqual([
      {
        kind: 'invalid_event',
        status: 200,
        operationId: 'thingEvents',
        issues: [{ pointer: '/n', message: 'must be integer', keyword: 'type' }],
      },
    ]);
  });

  it('reports a WebSocket message that breaks the event schema', async () => {
    const found = await reported(async () => {
      const url = `${collecting.url.replace(/^http/, 'ws')}/things/th_1/session`;
      const socket = new WebSocket(url, { headers: goodHeaders });
      await within(new Promise((resolve) => socket.once('close', resolve)), 2000, 'the session to end');
    });
    expect(found).toEqual([expect.objectContaining({ kind: 'invalid_event', operationId: 'thingSession' })]);
  });
});

describe('with the default onResponseInvalid', () => {
  it('answers 500 instead of an invalid body, and logs why', async () => {
    await expectError(await call(strict, 'invalid'), 500, 'internal_error');
    expect(strict.logs.join('\n')).toContain('reply 200: body is invalid: /id: must match pattern');
  });

  it('answers 500 instead of an undeclared status', async () => {
    await expectError(await call(strict, 'undeclared'), 500, 'internal_error');
    expect(strict.logs.join('\n')).toContain('reply 418: status 418 is not declared');
  });
});

describe('without response validation', () => {
  it('sends what the handler returns', async () => {
    const response = await call(lenient, 'invalid');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'nope', name: 1 });
  });
});
