import type * as v from 'valibot';
import { INT64_MAX, INT64_MIN } from '../body/body-limits';
import { INT32_MAX, INT32_MIN } from '../plant/schemas';
import type { JsonSchema } from './openapi-types';

/** What the converter reads of a valibot schema or pipe item: its public introspection fields. */
interface SchemaNode {
  readonly kind: string;
  readonly type: string;
  readonly pipe?: readonly SchemaNode[];
  readonly entries?: Readonly<Record<string, SchemaNode>>;
  readonly wrapped?: SchemaNode;
  readonly default?: unknown;
  readonly requirement?: unknown;
  readonly description?: unknown;
}

const INTEGER_FORMATS = [
  { format: 'int64', min: INT64_MIN, max: INT64_MAX },
  { format: 'int32', min: BigInt(INT32_MIN), max: BigInt(INT32_MAX) },
] as const;

function unsupported(what: string): never {
  throw new TypeError(`toJsonSchema: ${what} is not supported by this converter.`);
}

function asBigint(bound: unknown): bigint {
  if (typeof bound === 'bigint') return bound;
  if (typeof bound === 'number' && Number.isInteger(bound)) return BigInt(bound);
  return unsupported(`the bound ${String(bound)}`);
}

/** Integer bounds become a `format`, never `minimum`/`maximum`: 2^63 - 1 has no exact JSON number. */
function integerFormat(min: unknown, max: unknown): 'int32' | 'int64' {
  if (min === undefined || max === undefined) return unsupported('an integer without both bounds');
  const low = asBigint(min);
  const high = asBigint(max);
  const match = INTEGER_FORMATS.find((f) => f.min === low && f.max === high);
  return match?.format ?? unsupported(`the integer range ${low} to ${high}`);
}

function convert(node: SchemaNode): JsonSchema {
  if (node.type === 'optional') return unsupported('optional outside an object entry');
  let type: JsonSchema['type'];
  let integer = false;
  let properties: Record<string, JsonSchema> | undefined;
  let required: string[] | undefined;
  if (node.type === 'string') type = 'string';
  else if (node.type === 'bigint') integer = true;
  else if (node.type !== 'number') {
    if (node.type !== 'object' || node.entries === undefined) return unsupported(`"${node.type}"`);
    type = 'object';
    properties = {};
    required = [];
    for (const [key, entry] of Object.entries(node.entries)) {
      if (entry.type === 'optional') {
        if (entry.default !== undefined || entry.wrapped === undefined) {
          return unsupported(`the optional entry "${key}" with a default`);
        }
        properties[key] = convert(entry.wrapped);
      } else {
        properties[key] = convert(entry);
        required.push(key);
      }
    }
  }
  let description: string | undefined;
  let pattern: string | undefined;
  let min: unknown;
  let max: unknown;
  for (const item of node.pipe?.slice(1) ?? []) {
    if (item.type === 'description' && typeof item.description === 'string') {
      description = item.description;
    } else if (item.type === 'regex' && item.requirement instanceof RegExp) {
      pattern = item.requirement.source;
    } else if (item.type === 'integer') integer = true;
    else if (item.type === 'min_value') min = item.requirement;
    else if (item.type === 'max_value') max = item.requirement;
    else return unsupported(`the pipe item "${item.type}"`);
  }
  let typed: JsonSchema;
  if (integer) typed = { type: 'integer', format: integerFormat(min, max) };
  else if (type === undefined) return unsupported('a number that is not an integer');
  else if (min !== undefined || max !== undefined) return unsupported('bounds on a non-integer');
  else typed = { type };
  return {
    ...typed,
    ...(description === undefined ? {} : { description }),
    ...(pattern === undefined ? {} : { pattern }),
    ...(required === undefined || required.length === 0 ? {} : { required }),
    ...(properties === undefined ? {} : { properties }),
  };
}

/**
 * Converts one of our valibot schemas to JSON Schema. It handles exactly what the schemas use
 * (object, string, optional entries, bigint and integer numbers with int32/int64 bounds, regex,
 * description) and refuses anything else, so a schema change cannot silently produce a wrong document.
 *
 * @param schema - a valibot schema built from the supported pieces
 * @returns its JSON Schema
 * @throws TypeError for a construct the converter does not know
 * @example
 * ```ts
 * toJsonSchema(ErrorSchema).properties?.error; // { type: 'integer', format: 'int32', description: … }
 * ```
 */
export function toJsonSchema(schema: v.GenericSchema): JsonSchema {
  return convert(schema);
}

/** The last description in a schema's pipe, the way valibot's `getDescription` reads it. */
function descriptionOf(node: SchemaNode): string | undefined {
  const item = node.pipe?.findLast((i) => i.type === 'description');
  return typeof item?.description === 'string' ? item.description : undefined;
}

/**
 * Writes `derived` as `allOf: [{ $ref: base }, { its own entries }]`, the seed's form for NewPlant.
 * The shared entries must be the very same schema objects, so the two cannot drift apart.
 */
export function extensionOf(baseRef: string, base: SchemaNode, derived: SchemaNode): JsonSchema {
  const baseEntries = base.entries ?? unsupported('a base without entries');
  const derivedEntries = derived.entries ?? unsupported('an extension without entries');
  const own: Record<string, SchemaNode> = {};
  for (const [key, entry] of Object.entries(derivedEntries)) {
    if (!Object.hasOwn(baseEntries, key)) own[key] = entry;
    else if (baseEntries[key] !== entry) unsupported(`a redefined base entry "${key}"`);
  }
  const description = descriptionOf(derived);
  return {
    ...(description === undefined ? {} : { description }),
    allOf: [{ $ref: baseRef }, convert({ kind: 'schema', type: 'object', entries: own })],
  };
}
