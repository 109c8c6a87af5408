import { type CloudEvent, HTTP } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { INT64_MAX } from '../body/body-limits';
import type { PlantRecord } from '../plant/plant';
import { plantCreatedEvents } from './cloud-event';

const record = (fields: Partial<PlantRecord> = {}): PlantRecord => ({
  id: 5n,
  name: 'Fern',
  tenant: '',
  createdBy: 'alice',
  clientId: 'app-1',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  tokenId: undefined,
  ...fields,
});

const eventOf = plantCreatedEvents('https://api.example.com/plants');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

/** The body as the CloudEvents SDK reads a structured-mode HTTP message, validating it strictly. */
function sdkRead(body: string): CloudEvent<unknown> {
  const event = HTTP.toEvent({
    headers: { 'content-type': 'application/cloudevents+json' },
    body,
  }) as CloudEvent<unknown>;
  expect(event.validate()).toBe(true);
  return event;
}

describe('plantCreatedEvents', () => {
  it('writes a CloudEvents 1.0 body the SDK accepts, with every attribute and the extensions', () => {
    const event = eventOf(record({ tag: 'green', tenant: 'org-a' }));
    expect(event.id).toMatch(UUID);
    expect(event.body).toBe(
      `{"specversion":"1.0","id":"${event.id}","source":"https://api.example.com/plants",` +
        '"type":"plant.created","subject":"5","time":"2026-01-02T03:04:05.678Z",' +
        '"datacontenttype":"application/json","tenant":"org-a","owner":"alice","clientid":"app-1",' +
        '"data":{"id":5,"name":"Fern","tag":"green"}}',
    );
    const read = sdkRead(event.body);
    expect(read.specversion).toBe('1.0');
    expect(read.type).toBe('plant.created');
    expect(read.subject).toBe('5');
    expect(read.time).toBe('2026-01-02T03:04:05.678Z');
    expect(read['tenant']).toBe('org-a');
    expect(read['owner']).toBe('alice');
    expect(read['clientid']).toBe('app-1');
    expect(event).toMatchObject({
      type: 'plant.created',
      tenant: 'org-a',
      plantId: 5n,
      time: new Date('2026-01-02T03:04:05.678Z'),
    });
  });

  it('leaves out the tenant when tenants are off, and the owner and client when the token has none', () => {
    const event = eventOf(record({ createdBy: undefined, clientId: undefined }));
    const parsed = JSON.parse(event.body) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([
      'specversion',
      'id',
      'source',
      'type',
      'subject',
      'time',
      'datacontenttype',
      'data',
    ]);
    expect(parsed['data']).toEqual({ id: 5, name: 'Fern' });
    sdkRead(event.body);
  });

  it('writes the id as exact digits, in the subject and in data, at both ends of int64', () => {
    for (const id of [INT64_MAX, -INT64_MAX - 1n, 9007199254740993n]) {
      const event = eventOf(record({ id }));
      expect(event.body).toContain(`"subject":"${id}"`);
      expect(event.body).toContain(`"data":{"id":${id},`);
      expect(event.plantId).toBe(id);
      sdkRead(event.body);
    }
  });

  it('escapes every string as JSON does, and keeps the name exactly', () => {
    const name = 'quote " back \\ line\n\u2028 🌵 e\u0301';
    const event = eventOf(record({ name, createdBy: 'sub "x"', tenant: 't\\1' }));
    const parsed = JSON.parse(event.body) as {
      data: { name: string };
      owner: string;
      tenant: string;
    };
    expect(parsed.data.name).toBe(name);
    expect(parsed.owner).toBe('sub "x"');
    expect(parsed.tenant).toBe('t\\1');
    sdkRead(event.body);
  });

  it('draws a new id per event and keeps its own copy of the time', () => {
    const createdAt = new Date('2026-01-02T03:04:05.678Z');
    const first = eventOf(record({ createdAt }));
    const second = eventOf(record({ createdAt }));
    expect(first.id).not.toBe(second.id);
    createdAt.setTime(0);
    expect(first.time.toISOString()).toBe('2026-01-02T03:04:05.678Z');
  });

  it('writes the time exactly as toISOString does, second after second', () => {
    const times = [
      0, -1, 999, 1_000, 1_001, 1_767_323_045_678, 1_767_323_045_009, 1_767_323_046_090,
    ];
    for (const ms of [...times, 253_402_300_800_000, -62_198_755_200_000]) {
      const body = JSON.parse(eventOf(record({ createdAt: new Date(ms) })).body) as {
        time: string;
      };
      expect(body.time).toBe(new Date(ms).toISOString());
    }
  });

  it('escapes a source once, as JSON text', () => {
    const event = plantCreatedEvents('/api/"plants"')(record());
    expect((JSON.parse(event.body) as { source: string }).source).toBe('/api/"plants"');
  });
});
