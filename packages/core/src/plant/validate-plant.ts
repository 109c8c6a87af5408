import * as v from 'valibot';
import type { FieldIssueCode } from '../errors/error-codes';
import { InvalidBodyError } from '../errors/client-errors';
import type { FieldIssue } from '../errors/client-errors';
import type { NewPlant } from './plant';
import { INT64_MAX, INT64_MIN } from '../body/body-limits';
import { describeJsonType } from '../body/describe-json-type';
import type { PlantCandidate } from '../body/plant-candidate';
import { PARSED_NUMBER_ID, parsedIdError } from '../body/parsed-body';
import { NewPlantSchema } from './schemas';

type Field = 'id' | 'name' | 'tag';

// Also the order in which offending fields are reported.
const FIELDS: readonly Field[] = ['id', 'name', 'tag'];

const EXPECTED: Readonly<Record<Field, string>> = {
  id: `an integer from ${INT64_MIN} to ${INT64_MAX}`,
  name: 'a string',
  tag: 'a string or no tag at all',
};

/**
 * Turns the first valibot issue of one field into our code and words. Valibot reports a missing key
 * as an `object` issue with `input: undefined`; a present key holding `undefined` comes as the field
 * schema's issue with the same input, and means the same to a JSON client.
 */
function toFieldIssue(field: Field, issue: v.BaseIssue<unknown>): FieldIssue {
  const { input } = issue;
  let code: FieldIssueCode = 'schema_mismatch';
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
  return {
    field,
    code,
    message: `expected ${EXPECTED[field]}, received ${describeJsonType(input)}`,
  };
}

/**
 * Validates a candidate against {@link NewPlantSchema}, reporting every offending field at once.
 *
 * @param candidate - what a JSON reader found for `id`, `name` and `tag`
 * @returns a fresh, frozen `{ id, name, tag? }` that inherits nothing; nothing else is copied
 * @throws {@link InvalidBodyError} with one {@link FieldIssue} per offending field (order id, name,
 *   tag) and a message listing them; its `code` is the first issue's (`field_missing`,
 *   `id_not_integer`, `id_out_of_range`, `string_contains_nul` or `schema_mismatch`); then an
 *   `InternalServerError` `body_parsed_by_host` for an id a host's parser made a number of
 * @example
 * ```ts
 * validatePlant(readPlantJson('{"id":1,"name":"Fern"}')); // { id: 1n, name: 'Fern' }
 * ```
 */
export function validatePlant(candidate: PlantCandidate): NewPlant {
  // Own members only: valibot's object schema uses `in`, which would also see a polluted prototype.
  const id = Object.hasOwn(candidate, 'id') ? candidate.id : undefined;
  const name = Object.hasOwn(candidate, 'name') ? candidate.name : undefined;
  const tag = Object.hasOwn(candidate, 'tag') ? candidate.tag : undefined;
  // The schema decides every refusal and words it; a plant that plainly meets it (nearly every
  // request) is let through on the same checks written out, without valibot's issue machinery.
  // validate-plant.test.ts holds the two to the same verdict on generated inputs.
  if (!plainlyValid(id, name, tag)) {
    const input = Object.create(null) as Record<Field, unknown>;
    for (const field of FIELDS) {
      if (Object.hasOwn(candidate, field)) input[field] = candidate[field];
    }
    // An id a host's parser made a number of: `name` and `tag` are judged with a stand-in first.
    const parsedId = id === PARSED_NUMBER_ID;
    if (parsedId) input.id = 0n;
    const result = v.safeParse(NewPlantSchema, input, { abortEarly: false });
    if (!result.success) throw invalidPlant(result.issues);
    if (parsedId) throw parsedIdError();
  }
  // Built from what was read above, not valibot's output: that is a plain `{}`, where an absent `tag`
  // would be looked up on a possibly polluted Object.prototype. The schema transforms nothing.
  return new ValidPlant(id as bigint, name as string, tag as string | undefined);
}

/**
 * A validated plant: frozen, and inheriting nothing, as its prototype is empty, frozen and has no
 * prototype of its own. A class rather than `Object.create(null)`: V8 keeps null-prototype objects
 * in dictionary mode, where `Object.freeze` alone cost about 0.5 µs a request; this costs a tenth.
 */
class ValidPlant implements NewPlant {
  declare readonly id: bigint;
  declare readonly name: string;
  declare readonly tag?: string;

  constructor(id: bigint, name: string, tag: string | undefined) {
    (this as { id: bigint }).id = id;
    (this as { name: string }).name = name;
    if (tag !== undefined) (this as { tag?: string }).tag = tag;
    Object.freeze(this);
  }
}
Object.setPrototypeOf(ValidPlant.prototype, null);
Reflect.deleteProperty(ValidPlant.prototype, 'constructor');
Object.freeze(ValidPlant.prototype);

/**
 * {@link NewPlantSchema}'s checks, written out: an int64 `bigint` id, a `name` and an optional `tag`
 * that are strings without U+0000. True only when the schema would accept; false sends the
 * candidate to the schema, which decides.
 *
 * @param id - the candidate's own `id`
 * @param name - its own `name`
 * @param tag - its own `tag`, `undefined` when absent
 * @returns whether the schema surely accepts
 */
export function plainlyValid(id: unknown, name: unknown, tag: unknown): boolean {
  return (
    typeof id === 'bigint' &&
    id >= INT64_MIN &&
    id <= INT64_MAX &&
    typeof name === 'string' &&
    !name.includes(NUL) &&
    (tag === undefined || (typeof tag === 'string' && !tag.includes(NUL)))
  );
}

const NUL = '\u0000';

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
