import { checkKnownOptions, describeValue, optionError } from '../options/check-options';
import type { PlantStore } from '../plant/store';
import { plantCreatedEvents, type PlantCreatedEvent } from './cloud-event';

/** The service's `events` option as an object (`true` takes every default). */
export interface EventsOptions {
  /**
   * The CloudEvents `source` of every event: a URI-reference naming this service. Default: the
   * service's `publicUrl` followed by its `basePath` and `/plants` when `publicUrl` is set
   * (`https://api.example.com/plants`), else the relative `basePath` + `/plants` (`/plants`).
   */
  readonly source?: string | undefined;
}

const FACTORY = 'Plantstore';
const KNOWN = new Set(['source']);
// A URI-reference has no space, control or non-ASCII character (RFC 3986); a URL parses it.
const URI_CHARACTERS = /^[\x21-\x7e]+$/u;

/**
 * Checks the service's `events` option at start-up and makes the event builder the route calls on
 * each create, or `undefined` when events are off.
 *
 * @param value - the option as given: `undefined`, `false`, `true` or {@link EventsOptions}
 * @param store - the service's store, which must have an `outbox`
 * @param defaultSource - the `source` when the option names none
 * @returns the builder, or `undefined`
 * @throws TypeError for a bad value, an unknown key, a bad `source`, or a store without an outbox
 * @example
 * ```ts
 * const eventOf = eventsOption(true, memoryStore(), '/plants');
 * ```
 */
export function eventsOption(
  value: unknown,
  store: PlantStore,
  defaultSource: string,
): PlantCreatedEvent | undefined {
  if (value === undefined || value === false) return undefined;
  if (value !== true) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      optionError(FACTORY, 'events', 'must be true, false or { source }', describeValue(value));
    }
    checkKnownOptions(FACTORY, value, KNOWN, 'events.');
  }
  const given = value === true ? undefined : (value as EventsOptions).source;
  if (given !== undefined && !isUriReference(given)) {
    optionError(
      FACTORY,
      'events.source',
      "must be a URI-reference such as 'https://api.example.com/plants' or '/plants'",
      describeValue(given),
    );
  }
  if (typeof store.outbox !== 'object' || store.outbox === null) {
    optionError(
      FACTORY,
      'events',
      'needs a store with an outbox, to write each event with its plant: use memoryStore(), ' +
        'a shipped store with its outbox on (docs/guides/events.md), or give your store an `outbox`',
      'a store without one',
    );
  }
  return plantCreatedEvents(given ?? defaultSource);
}

function isUriReference(value: unknown): value is string {
  if (typeof value !== 'string' || !URI_CHARACTERS.test(value)) return false;
  try {
    new URL(value, 'http://relative.invalid/');
    return true;
  } catch {
    return false;
  }
}
