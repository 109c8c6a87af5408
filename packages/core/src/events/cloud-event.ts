// The `plant.created` event, built once per create by the service and handed to the store with the
// plant (StoreContext.event). Its body is the CloudEvents 1.0 structured-mode JSON every sink sends.
import type { PlantRecord } from '../plant/plant';
import type { OutboxEvent } from './outbox';

/** The CloudEvents `type` of every event the core writes. */
export const PLANT_CREATED = 'plant.created';

/** Builds the event of one created plant; made once per service by {@link plantCreatedEvents}. */
export type PlantCreatedEvent = (record: PlantRecord) => OutboxEvent;

/**
 * The builder of `plant.created` events for one `source`. Everything that does not change per
 * create (the attributes up to `source`, escaped once) is built here, at start-up; a create pays for
 * a UUID, the record's fields and one string.
 *
 * The body's attributes: `specversion` `1.0`, `id` a random UUID, `source`, `type`
 * `plant.created`, `subject` the plant's id as decimal text, `time` the record's `createdAt`
 * (RFC 3339), `datacontenttype` `application/json`, the extensions `tenant` (left out when tenants
 * are off), `owner` (the token's `sub`) and `clientid` (its client), each left out when absent, and
 * `data`, the plant `{ id, name, tag? }` with `id` an exact JSON integer (int64, never a float).
 *
 * @param source - the CloudEvents `source`: a URI-reference naming the service
 * @returns the builder
 * @example
 * ```ts
 * const eventOf = plantCreatedEvents('https://api.example.com/plants');
 * const event = eventOf(record); // event.body: '{"specversion":"1.0","id":"…",…}'
 * ```
 */
export function plantCreatedEvents(source: string): PlantCreatedEvent {
  const head = `{"specversion":"1.0","id":"`;
  const afterId = `","source":${JSON.stringify(source)},"type":"${PLANT_CREATED}","subject":"`;
  const rfc3339 = rfc3339Clock();
  return (record) => {
    const id = crypto.randomUUID();
    const plantId = record.id;
    const digits = plantId.toString();
    const { name, tag, tenant, createdBy, clientId } = record;
    // The record's Date is the caller's and mutable: the event keeps its own.
    const ms = record.createdAt.getTime();
    const time = new Date(ms);
    // Strings go through JSON.stringify (every escape right); the id is written as its digits, so
    // it is never rounded through a double.
    const body =
      `${head}${id}${afterId}${digits}","time":"${rfc3339(ms)}",` +
      `"datacontenttype":"application/json"` +
      (tenant === '' ? '' : `,"tenant":${JSON.stringify(tenant)}`) +
      (createdBy === undefined ? '' : `,"owner":${JSON.stringify(createdBy)}`) +
      (clientId === undefined ? '' : `,"clientid":${JSON.stringify(clientId)}`) +
      `,"data":{"id":${digits},"name":${JSON.stringify(name)}` +
      (tag === undefined ? '}}' : `,"tag":${JSON.stringify(tag)}}}`);
    return { id, type: PLANT_CREATED, tenant, plantId, time, body };
  };
}

/**
 * `Date#toISOString` for the creates of one service, the text up to the second kept while the
 * second lasts: it is most of an event's cost, and creates come many to a second.
 *
 * @returns the formatter, of milliseconds since the epoch
 */
function rfc3339Clock(): (ms: number) => string {
  let second = Number.NaN;
  let upToSecond = '';
  return (ms) => {
    const whole = Math.floor(ms / 1000);
    if (whole !== second) {
      const text = new Date(whole * 1000).toISOString();
      // `YYYY-MM-DDTHH:MM:SS.000Z`; a year past 9999 is longer, and formatted whole below.
      second = whole;
      upToSecond = text.length === 24 ? text.slice(0, 20) : '';
    }
    if (upToSecond === '') return new Date(ms).toISOString();
    const milli = ms - whole * 1000;
    return `${upToSecond}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  };
}
