import { jwtBearer, memoryStore } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { type ContractHost, contractView, type Outgoing, send } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts } from './hosts';

describe('Express, Koa, Fastify and node:http', () => {
  let issuer: TokenIssuer;
  const running: Record<string, ContractHost> = {};

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    for (const [name, target] of Object.entries(hosts)) {
      running[name] = await target.start({
        store: memoryStore(),
        auth: jwtBearer({
          jwksUri: issuer.jwksUri,
          issuer: issuer.issuer,
          audience: issuer.audience,
          requiredScopes: ['plants:write'],
        }),
        bodyTimeout: 300,
      });
    }
  });

  afterAll(async () => {
    await Promise.all(Object.values(running).map((host) => host.close()));
    await issuer.close();
  });

  it('answer every request of the contract identically: status, contract headers and body', async () => {
    const token = await issuer.sign({ scope: 'plants:write' });
    const expired = await issuer.sign({ scope: 'plants:write' }, { expiresIn: -60 });
    const reader = await issuer.sign({ scope: 'plants:read' });
    const json = { 'content-type': 'application/json' };
    const auth = (value: string) => ({ ...json, authorization: `Bearer ${value}` });
    const post = (
      body: string | Uint8Array,
      headers: Outgoing['headers'] = auth(token),
    ): Outgoing => ({
      body,
      headers,
    });
    const requests: Readonly<Record<string, Outgoing>> = {
      create: post('{"id":1,"name":"Monstera","tag":"aroid"}'),
      replay: post('{"id":1,"name":"Monstera","tag":"aroid"}'),
      conflict: post('{"id":1,"name":"Other","tag":"aroid"}'),
      'no tag': post('{"id":2,"name":"Fern"}'),
      'int64 max': post('{"id":9223372036854775807,"name":"Max"}'),
      '2^53 + 1': post('{"id":9007199254740993,"name":"Exact"}'),
      'integers by value': post('{"id":1e2,"name":"Hundred"}'),
      'BOM and charset': post('\ufeff{"id":3,"name":"Bom"}', {
        ...auth(token),
        'content-type': 'application/json; charset=UTF-8',
      }),
      'not JSON': post('{"id":1,'),
      'not an object': post('[1,2]'),
      'schema mismatch': post('{"id":"12","name":5,"tag":null}'),
      'missing name': post('{"id":4}'),
      'out of range': post('{"id":9223372036854775808,"name":"x"}'),
      fraction: post('{"id":1.5,"name":"x"}'),
      'duplicate key': post('{"id":5,"name":"a","name":"b"}'),
      'proto key': post('{"id":5,"name":"a","__proto__":{}}'),
      'too deep': post(`{"id":5,"name":"a","x":${'['.repeat(64)}${']'.repeat(64)}}`),
      'lone surrogate': post('{"id":5,"name":"\\ud800"}'),
      'U+0000': post('{"id":5,"name":"a\\u0000"}'),
      'invalid UTF-8': post(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
      empty: post(''),
      'malformed authorization': post('{"id":6,"name":"a"}', { ...json, authorization: 'Bearer' }),
      'repeated authorization': post('{"id":6,"name":"a"}', {
        ...json,
        Authorization: [`Bearer ${token}`, `Bearer ${token}`],
      }),
      'no token': post('{"id":6,"name":"a"}', json),
      'basic scheme': post('{"id":6,"name":"a"}', { ...json, authorization: 'Basic YTpi' }),
      expired: post('{"id":6,"name":"a"}', auth(expired)),
      'malformed token': post('{"id":6,"name":"a"}', auth('a.b')),
      'insufficient scope': post('{"id":6,"name":"a"}', auth(reader)),
      'too large': post(`{"id":7,"name":"${'x'.repeat(16_400)}"}`),
      'text/plain': post('{"id":8,"name":"a"}', { ...auth(token), 'content-type': 'text/plain' }),
      latin1: post('{"id":8,"name":"a"}', {
        ...auth(token),
        'content-type': 'application/json; charset=latin1',
      }),
      'no content type': post('{"id":8,"name":"a"}', { authorization: `Bearer ${token}` }),
      gzip: post('{"id":8,"name":"a"}', { ...auth(token), 'content-encoding': 'gzip' }),
    };
    const [reference, ...others] = Object.keys(hosts);
    for (const [name, request] of Object.entries(requests)) {
      const expected = contractView(
        await send((running[reference as string] as ContractHost).url, request),
      );
      for (const other of others) {
        const actual = contractView(await send((running[other] as ContractHost).url, request));
        expect({ request: name, host: other, ...actual }).toEqual({
          request: name,
          host: other,
          ...expected,
        });
      }
    }
  });
});
