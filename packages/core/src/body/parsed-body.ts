import { InvalidBodyError } from '../errors/client-errors';
import { InternalServerError } from '../errors/server-errors';
import { FORBIDDEN_KEYS, MAX_DEPTH } from './body-limits';
import { describeJsonType } from './describe-json-type';
import type { PlantCandidate } from './plant-candidate';

type Field = 'id' | 'name' | 'tag';

/**
 * Builds a candidate from a body the host's JSON parser (`JSON.parse`-based, such as `express.json()`)
 * already produced, applying the strict reader's structural rules to it. A numeric id becomes
 * {@link PARSED_NUMBER_ID}, which the schema step refuses once `name` and `tag` pass: the parser may
 * have rounded it, so only a body read from its bytes can create a plant. Other id types go on to
 * the schema (which names them); nested objects and arrays become empty placeholders.
 *
 * @param value - the parsed body, such as `req.body`
 * @returns a null-prototype {@link PlantCandidate} holding only the own members `id`, `name`, `tag`
 * @throws {@link InvalidBodyError} `body_not_object` (not a plain object), `body_too_deep` (nesting
 *   past 64) or `body_forbidden_key` (an own `__proto__` or `constructor` key at any depth)
 * @example
 * ```ts
 * candidateFromParsed(JSON.parse('{"id":"7","name":"Fern"}')); // { id: '7', name: 'Fern' }: the schema refuses it
 * ```
 */
export function candidateFromParsed(value: unknown): PlantCandidate {
  if (!isPlainObject(value)) {
    throw new InvalidBodyError(
      'body_not_object',
      `The body must be a JSON object, but it is ${describeJsonType(value)}.`,
    );
  }
  checkStructure(value);
  const candidate = Object.create(null) as Record<Field, unknown>;
  if (Object.hasOwn(value, 'id')) candidate.id = idFromParsed(value['id']);
  if (Object.hasOwn(value, 'name')) candidate.name = wellFormed(placeholder(value['name']));
  if (Object.hasOwn(value, 'tag')) candidate.tag = wellFormed(placeholder(value['tag']));
  return candidate;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Walks the body without recursion, so hostile nesting cannot overflow the stack. Each container is
 * visited once: a `JSON.parse` result is a tree anyway, and a hand-built graph with shared or cyclic
 * references stays linear instead of exploding.
 */
function checkStructure(root: object): void {
  const seen = new WeakSet<object>([root]);
  const stack: [object, number][] = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    const children: unknown[] = [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) children.push(node[i]);
    } else {
      for (const key of FORBIDDEN_KEYS) {
        if (Object.hasOwn(node, key)) {
          throw new InvalidBodyError(
            'body_forbidden_key',
            `The body uses the reserved key name "${key}"; remove that member.`,
          );
        }
      }
      for (const key of Object.keys(node)) children.push((node as Record<string, unknown>)[key]);
    }
    for (const child of children) {
      if (typeof child !== 'object' || child === null || seen.has(child)) continue;
      if (depth + 1 > MAX_DEPTH) {
        throw new InvalidBodyError(
          'body_too_deep',
          `The body nests deeper than ${MAX_DEPTH} levels.`,
        );
      }
      seen.add(child);
      stack.push([child, depth + 1]);
    }
  }
}

/** Objects and arrays carry nothing a field could use; only their type matters from here on. */
// JSON.parse turns "\ud800" into a lone surrogate; the strict reader refuses it, so this path must too.
function wellFormed(value: unknown): unknown {
  if (
    typeof value === 'string' &&
    !(value as string & { isWellFormed(): boolean }).isWellFormed()
  ) {
    throw new InvalidBodyError(
      'body_lone_surrogate',
      'A string holds an unpaired UTF-16 surrogate, which is not text; send well-formed Unicode.',
    );
  }
  return value;
}

function placeholder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Array.isArray(value) ? [] : (Object.create(null) as object);
}

// The client did nothing wrong: the server's parser ran first. It gets the generic 500 message, and
// the service's logger tells the server how to mount the route (see service/logger.ts).
const UNPROVABLE_ID =
  "The host application's JSON body parser read the body before the plants route, and a parsed number cannot show that the id was sent exactly (1.0000000000000001 and 1 parse the same; ids past 2^53 are rounded).";

/**
 * What {@link candidateFromParsed} holds for a numeric id: the schema (`validatePlant`) judges `name`
 * and `tag` first, since those are the client's to fix, then refuses it with
 * {@link parsedIdError}.
 */
export const PARSED_NUMBER_ID: unique symbol = Symbol('an id a host parser made a number of');

/**
 * The refusal of an id a host's parser made a number of: JSON.parse has already turned the digits
 * into a double, so a fraction may have vanished (4503599627370497.5, 1.0000000000000001, 1e-400)
 * and a large id been rounded. Nothing can prove the id exact, and the route never stores what it
 * cannot prove.
 *
 * @returns a 500 `body_parsed_by_host`: a set-up problem of the server, not the client's
 * @example
 * ```ts
 * if (candidate.id === PARSED_NUMBER_ID) throw parsedIdError();
 * ```
 */
export function parsedIdError(): InternalServerError {
  return new InternalServerError('body_parsed_by_host', UNPROVABLE_ID);
}

function idFromParsed(id: unknown): unknown {
  return typeof id === 'number' ? PARSED_NUMBER_ID : placeholder(id);
}
