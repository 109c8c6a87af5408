import * as v from 'valibot';
import { InvalidBodyError } from '../errors/plant-store-error';
import type { FieldIssue, PlantStoreErrorCode } from '../errors/plant-store-error';
import type { NewPlant } from './plant';
import { INT64_MAX, INT64_MIN } from '../body/read-plant-json';
import type { PlantCandidate } from '../body/read-plant-json';
import { NewPlantSchema } from './schemas';

type Field = 'id' | 'name' | 'tag';

// Also the order in which offending fields are reported.
const FIELDS: readonly Field[] = ['id', 'name', 'tag'];

const EXPECTED: Readonly<Record<Field, string>> = {
  id: `an integer from ${INT64_MIN} to ${INT64_MAX}`,
  name: 'a string',
  tag: 'a string or no tag at all',
};

const ABOVE_INT64 = INT64_MAX + 1n;
const BELOW_INT64 = INT64_MIN - 1n;
const MAX_DEPTH = 64;
// Any decimal that a double rounds to 2^64 or more is far beyond INT64_MAX, rounding or not.
const CERTAINLY_BEYOND_INT64 = 2 ** 64;

/**
 * Names the type of a value, never the value: messages must not echo what a client sent.
 *
 * @param value - a candidate's member
 * @returns an indefinite noun phrase such as `a string`
 */
function describeType(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return value > INT64_MAX || value < INT64_MIN
        ? 'an integer outside the int64 range'
        : 'an integer';
    case 'number':
      if (Number.isNaN(value)) return 'a number that is not a number (NaN)';
      if (!Number.isFinite(value)) return 'an integer outside the int64 range';
      return Number.isInteger(value) ? 'an integer' : 'a number with a fraction';
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? 'an array' : 'an object';
    default:
      return 'an unsupported value';
  }
}

/**
 * Turns the first valibot issue of one field into our code and words. Valibot reports a missing key
 * as an `object` issue with `input: undefined`; a present key holding `undefined` comes as the field
 * schema's issue with the same input, and means the same to a JSON client.
 */
function toFieldIssue(field: Field, issue: v.BaseIssue<unknown>): FieldIssue {
  const { input } = issue;
  let code: PlantStoreErrorCode = 'schema_mismatch';
  if (input === undefined) {
    return { field, code: 'field_missing', message: 'is required' };
  }
  if (issue.type === 'regex') {
    return {
      field,
      code: 'string_contains_nul',
      message:
        'expected a string without the character U+0000, received a string containing U+0000',
    };
  }
  if (field === 'id') {
    if (issue.type === 'min_value' || issue.type === 'max_value') code = 'id_out_of_range';
    else if (typeof input === 'number' && !Number.isNaN(input)) {
      if (!Number.isFinite(input)) code = 'id_out_of_range';
      else if (!Number.isInteger(input)) code = 'id_not_integer';
    }
  }
  return { field, code, message: `expected ${EXPECTED[field]}, received ${describeType(input)}` };
}

/**
 * Validates a candidate against {@link NewPlantSchema}, reporting every offending field at once.
 *
 * @param candidate - what a JSON reader found for `id`, `name` and `tag`
 * @returns a fresh, frozen, null-prototype `{ id, name, tag? }`; nothing else is copied
 * @throws {@link InvalidBodyError} with one {@link FieldIssue} per offending field (order id, name,
 *   tag) and a message listing them; its `code` is the first issue's (`field_missing`,
 *   `id_not_integer`, `id_out_of_range`, `string_contains_nul` or `schema_mismatch`)
 * @example
 * ```ts
 * validatePlant(readPlantJson('{"id":1,"name":"Fern"}')); // { id: 1n, name: 'Fern' }
 * ```
 */
export function validatePlant(candidate: PlantCandidate): NewPlant {
  // Own members only: valibot's object schema uses `in`, which would also see a polluted prototype.
  const input = Object.create(null) as Record<Field, unknown>;
  for (const field of FIELDS) {
    if (Object.hasOwn(candidate, field)) input[field] = candidate[field];
  }
  const result = v.safeParse(NewPlantSchema, input, { abortEarly: false });
  if (!result.success) throw invalidPlant(result.issues);
  // Read from our null-prototype input, not valibot's output: that is a plain `{}`, where an absent
  // `tag` would be looked up on a possibly polluted Object.prototype. The schema transforms nothing.
  const valid = input as { id: bigint; name: string; tag?: string };
  const plant = Object.create(null) as { id: bigint; name: string; tag?: string };
  plant.id = valid.id;
  plant.name = valid.name;
  if (valid.tag !== undefined) plant.tag = valid.tag;
  return Object.freeze(plant);
}

function invalidPlant(issues: readonly v.BaseIssue<unknown>[]): InvalidBodyError {
  const byField = new Map<Field, FieldIssue>();
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    const field = FIELDS.find((name) => name === key);
    if (field !== undefined && !byField.has(field)) byField.set(field, toFieldIssue(field, issue));
  }
  const found = FIELDS.flatMap((field) => {
    const issue = byField.get(field);
    return issue === undefined ? [] : [Object.freeze(issue)];
  });
  const first = found[0];
  if (first === undefined) {
    // Unreachable with a PlantCandidate; kept so a schema change cannot yield an empty verdict.
    return new InvalidBodyError('schema_mismatch', 'The plant is invalid.');
  }
  const list = found.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
  return new InvalidBodyError(first.code, `The plant is invalid: ${list}.`, {
    issues: Object.freeze(found),
  });
}

/**
 * Builds a candidate from a body the host's JSON parser (`JSON.parse`-based, such as `express.json()`)
 * already produced, applying the strict reader's structural rules to it. Safe-integer ids become
 * `bigint`; nested objects and arrays become empty placeholders of their type.
 *
 * @param value - the parsed body, such as `req.body`
 * @returns a null-prototype {@link PlantCandidate} holding only the own members `id`, `name`, `tag`
 * @throws {@link InvalidBodyError} `body_not_object` (not a plain object), `body_too_deep` (nesting
 *   past 64), `body_forbidden_key` (an own `__proto__` or `constructor` key at any depth), or
 *   `id_unsafe_in_parsed_body` (an integer id past 2^53 that the host's parser has rounded)
 * @example
 * ```ts
 * candidateFromParsed(JSON.parse('{"id":7,"name":"Fern","x":[1]}')); // { id: 7n, name: 'Fern' }
 * ```
 */
export function candidateFromParsed(value: unknown): PlantCandidate {
  if (!isPlainObject(value)) {
    throw new InvalidBodyError(
      'body_not_object',
      `The body must be a JSON object, but it is ${describeType(value)}.`,
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
      for (const key of ['__proto__', 'constructor']) {
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

function idFromParsed(id: unknown): unknown {
  if (typeof id !== 'number') return placeholder(id);
  if (Number.isSafeInteger(id)) return BigInt(id);
  // Also ±Infinity, which JSON.parse makes of literals such as 1e400.
  if (Math.abs(id) >= CERTAINLY_BEYOND_INT64) return id > 0 ? ABOVE_INT64 : BELOW_INT64;
  if (Number.isInteger(id)) {
    throw new InvalidBodyError(
      'id_unsafe_in_parsed_body',
      "The id is beyond ±2^53 and was rounded by the host application's JSON body parser; mount the plants route before the body parser (express.json(), Koa's bodyParser()) so it can read the exact digits.",
    );
  }
  // A fraction (reported as id_not_integer) or NaN (a type mismatch).
  return id;
}
