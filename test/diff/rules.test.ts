/**
 * Every rule of README's classification table, each on a pair of our documents made by one edit, compared both
 * ways (old → new and new → old).
 */
import { describe, expect, it } from 'vitest';
import { bothWays } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: edits reach anywhere into parsed YAML
type Obj = Record<string, any>;
const without = (list: string[], item: string) => list.filter((x) => x !== item);

describe('requests', () => {
  it('a removed operation is breaking; an added one is not', () => {
    const { forward, backward } = bothWays((o) => {
      delete o.paths['/conversations/{conversation_id}/context'];
    });
    expect(forward).toEqual(['breaking removed POST /conversations/{conversation_id}/context: operation']);
    expect(backward).toEqual(['non-breaking added POST /conversations/{conversation_id}/context: operation']);
  });

  it('a changed path or method is breaking both ways', () => {
    const path = bothWays((o) => {
      o.paths['/conversations/{conversation_id}/inject'] = o.paths['/conversations/{conversation_id}/context'];
      delete o.paths['/conversations/{conversation_id}/context'];
    });
    expect(path.forward).toContain('breaking removed POST /conversations/{conversation_id}/context: operation');
    expect(path.backward).toContain('breaking removed POST /conversations/{conversation_id}/inject: operation');
    const method = bothWays((o) => {
      const item = o.paths['/conversations/{conversation_id}/context'];
      item.put = item.post;
      delete item.post;
    });
    expect(method.forward).toContain('breaking removed POST /conversations/{conversation_id}/context: operation');
    expect(method.backward).toContain('breaking removed PUT /conversations/{conversation_id}/context: operation');
  });

  it('a new required member is breaking, and so is its removal', () => {
    const { forward, backward } = bothWays((o) => {
      const schema = o.components.schemas.CreateConversationRequest;
      schema.properties.campaign = { type: 'string' };
      schema.required.push('campaign');
    });
    expect(forward).toEqual(['breaking added POST /conversations: request body required member campaign']);
    expect(backward).toEqual(['breaking removed POST /conversations: request body required member campaign']);
  });

  it('a new optional member is not breaking; its removal is', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.schemas.CreateConversationRequest.properties.campaign = { type: 'string' };
    });
    expect(forward).toEqual(['non-breaking added POST /conversations: request body member campaign']);
    expect(backward).toEqual(['breaking removed POST /conversations: request body member campaign']);
  });

  it('a member made required is breaking; made optional is not', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.schemas.CreateConversationRequest.required.push('livemode');
    });
    expect(forward).toEqual(['breaking added POST /conversations: request body required status for livemode']);
    expect(backward[0]).toMatch(/^non-breaking removed POST \/conversations: request body required status/);
  });

  it('a removed accepted value is breaking; a new one is not', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.schemas.ServiceVersion.enum.push('2026-01-01');
    });
    expect(forward).toEqual([
      'non-breaking added DELETE /procedural_agents/{id}: parameter Service-Version (header) enum value "2026-01-01"',
    ]);
    expect(backward).toEqual([
      'breaking removed DELETE /procedural_agents/{id}: parameter Service-Version (header) enum value "2026-01-01"',
    ]);
  });

  it('a narrowed type is breaking; a widened one is not', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.schemas.UserMessageSend.properties.text.type = ['string', 'null'];
    });
    expect(forward).toEqual(['non-breaking changed client event user.message.send: payload type of payload.text']);
    expect(backward).toEqual(['breaking changed client event user.message.send: payload type of payload.text']);
  });

  it('a new or narrowed pattern is breaking; a removed one is not', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.schemas.UserMessageSend.properties.text.pattern = '^\\S';
    });
    expect(forward).toEqual(['breaking added client event user.message.send: payload pattern of payload.text']);
    expect(backward).toEqual(['non-breaking removed client event user.message.send: payload pattern of payload.text']);
  });

  it('a new required parameter is breaking; a new optional one is not', () => {
    const required = bothWays((o) => {
      o.paths['/conversations'].get.parameters.push({
        name: 'q',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      });
    });
    expect(required.forward).toEqual(['breaking added GET /conversations: parameter q (query)']);
    const optional = bothWays((o) => {
      o.paths['/conversations'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } });
    });
    expect(optional.forward).toEqual(['non-breaking added GET /conversations: parameter q (query)']);
  });

  it('a parameter moved to another location is breaking both ways', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.parameters.Limit.in = 'header';
    });
    expect(forward.filter((l) => l.startsWith('non-breaking'))).toEqual([]);
    expect(forward).toContain('breaking removed GET /conversations: parameter limit (query)');
    expect(forward).toContain('breaking added GET /conversations: parameter limit (header)');
    expect(backward).toContain('breaking removed GET /conversations: parameter limit (header)');
  });
});

describe('responses and server events', () => {
  const conversation = (o: Obj) => o.components.schemas.Conversation;

  it('a new member is not breaking, required or not', () => {
    const { forward } = bothWays((o) => {
      conversation(o).properties.campaign = { type: 'string' };
      conversation(o).required.push('campaign');
    });
    expect(forward[0]).toMatch(/^non-breaking added .*: response 200 required member campaign/);
    expect(forward.every((l) => l.startsWith('non-breaking'))).toBe(true);
  });

  it('a removed member that was required is breaking; one that was optional is not', () => {
    const required = bothWays((o) => {
      delete conversation(o).properties.summary;
      conversation(o).required = without(conversation(o).required, 'summary');
    });
    expect(required.forward).toEqual([
      'breaking removed GET /conversations/{conversation_id}: response 200 required member summary',
    ]);
    const optional = bothWays((o) => {
      conversation(o).properties.campaign = { type: 'string' };
    });
    expect(optional.backward.length).toBeGreaterThan(0);
    expect(optional.backward.every((l) => l.startsWith('non-breaking removed'))).toBe(true);
  });

  it('a member made optional is breaking; made required is not', () => {
    const { forward, backward } = bothWays((o) => {
      conversation(o).required = without(conversation(o).required, 'summary');
    });
    expect(forward[0]).toMatch(
      /^breaking removed GET \/conversations\/\{conversation_id\}: response 200 required status/,
    );
    expect(backward[0]).toMatch(/^non-breaking added .*: response 200 required status/);
  });

  it('a changed type is breaking; a narrowed one is not', () => {
    const changed = bothWays((o) => {
      conversation(o).properties.duration_sec.type = 'string';
    });
    expect(changed.forward).toEqual([
      'breaking changed GET /conversations/{conversation_id}: response 200 type of duration_sec',
    ]);
    expect(changed.backward).toEqual(changed.forward);
    const narrowed = bothWays((o) => {
      conversation(o).properties.summary.type = 'string';
    });
    expect(narrowed.forward).toEqual([
      'non-breaking changed GET /conversations/{conversation_id}: response 200 type of summary',
    ]);
    expect(narrowed.backward).toEqual([
      'breaking changed GET /conversations/{conversation_id}: response 200 type of summary',
    ]);
  });

  it('a new enum value is not breaking for the tolerant reader, nor a removed one', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.schemas.Sentiment.enum.push('mixed');
    });
    expect(forward[0]).toMatch(/^non-breaking added .*enum value "mixed"/);
    expect(backward[0]).toMatch(/^non-breaking removed .*enum value "mixed"/);
  });

  it('a server event that loses a required member is breaking; one that gains it is not', () => {
    const { forward, backward } = bothWays((o) => {
      const notice = o.components.schemas.AgentNoticeSent;
      delete notice.properties.data;
      notice.required = without(notice.required, 'data');
    });
    expect(forward).toEqual(['breaking removed server event agent.notice.sent: payload required member payload.data']);
    expect(backward).toEqual([
      'non-breaking added server event agent.notice.sent: payload required member payload.data',
    ]);
  });

  it('a removed server event is breaking; a new one is not', () => {
    const { forward, backward } = bothWays((_o, a) => {
      for (const op of ['sendConversationEvents', 'sendSessionEvents'])
        a.operations[op].messages = a.operations[op].messages.filter(
          (m: Obj) => !m.$ref.endsWith('AgentNoticeSentEvent'),
        );
      delete a.channels.conversationEvents.messages.AgentNoticeSentEvent;
      delete a.channels.conversationSession.messages.AgentNoticeSentEvent;
      delete a.components.messages.AgentNoticeSentEvent;
    });
    expect(forward).toEqual(['breaking removed server event agent.notice.sent: event']);
    expect(backward).toEqual(['non-breaking added server event agent.notice.sent: event']);
  });
});

describe('client events', () => {
  it('a removed client event is breaking; a new one is not', () => {
    const { forward, backward } = bothWays((_o, a) => {
      a.operations.receiveClientEvents.messages.pop();
      delete a.channels.conversationSession.messages.ConversationEndEvent;
      delete a.components.messages.ConversationEndEvent;
    });
    expect(forward).toEqual(['breaking removed client event conversation.end: event']);
    expect(backward).toEqual(['non-breaking added client event conversation.end: event']);
  });

  it('a new required member of a payload is breaking', () => {
    const { forward } = bothWays((o) => {
      o.components.schemas.UserMessageSend.properties.lang = { type: 'string' };
      o.components.schemas.UserMessageSend.required.push('lang');
    });
    expect(forward).toEqual(['breaking added client event user.message.send: payload required member payload.lang']);
  });

  it('a changed channel address is breaking both ways', () => {
    const { forward, backward } = bothWays((_o, a) => {
      a.channels.conversationSession.address = '/conversations/{conversation_id}/ws';
    });
    expect(forward).toEqual([
      'breaking removed channel /conversations/{conversation_id}/session: channel',
      'non-breaking added channel /conversations/{conversation_id}/ws: channel',
    ]);
    expect(backward).toContain('breaking removed channel /conversations/{conversation_id}/ws: channel');
  });
});

describe('security', () => {
  it('a scheme added to a requirement is breaking; dropped from one is not', () => {
    const { forward, backward } = bothWays((o) => {
      o.security[0].conversationToken = [];
    });
    expect(forward).toEqual(['breaking added document security: scheme conversationToken of security requirement 1']);
    expect(backward).toEqual([
      'non-breaking removed document security: scheme conversationToken of security requirement 1',
    ]);
  });

  it('a new alternative is not breaking; a removed one is', () => {
    const { forward, backward } = bothWays((o) => {
      o.security.push({ conversationToken: [] });
    });
    expect(forward).toEqual(['non-breaking added document security: security requirement 2']);
    expect(backward).toEqual(['breaking removed document security: security requirement 2']);
  });

  it('a new security scheme is not breaking; a removed one is', () => {
    const { forward, backward } = bothWays((o) => {
      o.components.securitySchemes.partnerKey = { type: 'apiKey', in: 'header', name: 'X-Partner-Key' };
    });
    expect(forward).toEqual(['non-breaking added security scheme partnerKey: definition']);
    expect(backward).toEqual(['breaking removed security scheme partnerKey: definition']);
  });

  it('a changed security scheme is breaking', () => {
    const { forward } = bothWays((o) => {
      o.components.securitySchemes.conversationToken.name = 'access_token';
    });
    expect(forward).toHaveLength(1);
    expect(forward[0]).toMatch(/^breaking changed security scheme conversationToken/);
  });
});

describe('what never counts', () => {
  it('descriptions, examples, extensions and order', () => {
    const { forward, backward } = bothWays((o, a) => {
      o.components.schemas.Conversation.description = 'Changed.';
      o.paths['/conversations'].get.summary = 'Changed';
      o.components.parameters.Limit.example = 10;
      o.components.schemas.Conversation['x-casi-inferred'] = true;
      o.components.schemas.Conversation.required.reverse();
      o.components.schemas.Sentiment.enum.reverse();
      a.components.messages.UserMessageSendEvent.title = 'Changed';
      o.paths = Object.fromEntries(Object.entries(o.paths).reverse());
    });
    expect(forward).toEqual([]);
    expect(backward).toEqual([]);
  });
});
