import * as v from 'valibot';
import { INT64_MAX, INT64_MIN } from '../body/body-limits';

/**
 * The smallest int32, the bottom of the Error body's `error` range.
 *
 * @example
 * ```ts
 * v.is(ErrorSchema, { error: INT32_MIN, message: 'x' }); // true
 * ```
 */
export const INT32_MIN = -(2 ** 31);

/**
 * The largest int32, the top of the Error body's `error` range.
 *
 * @example
 * ```ts
 * v.is(ErrorSchema, { error: INT32_MAX + 1, message: 'x' }); // false
 * ```
 */
export const INT32_MAX = 2 ** 31 - 1;

// PostgreSQL text cannot hold U+0000, and we never acknowledge what we cannot keep. A regex (rather
// than `check`) because the OpenAPI converter can read it back as the JSON Schema `pattern`.
// eslint-disable-next-line no-control-regex -- U+0000 is exactly the character refused here
const WITHOUT_NUL = /^[^\u0000]*$/u;

const storableString = (text: string) =>
  v.pipe(v.string(), v.regex(WITHOUT_NUL), v.description(text));

/**
 * A plant as the route answers it: `name` required, `tag` optional, both strings without U+0000.
 * `null` is not a string, so `tag: null` is refused.
 *
 * @example
 * ```ts
 * v.is(PlantSchema, { name: 'Fern', tag: 'indoor' }); // true
 * v.is(PlantSchema, { name: 'Fern', tag: null }); // false
 * ```
 */
export const PlantSchema = v.pipe(
  v.object({
    name: storableString('The name of the plant'),
    tag: v.optional(storableString('Tag that specifies the type of the plant')),
  }),
  v.description('A plant as the route answers it: the stored plant without its id.'),
);

/**
 * The request body of plant creation: every entry of {@link PlantSchema} (the same schema objects)
 * plus `id`, a `bigint` within int64. Other properties are dropped from the output.
 *
 * @example
 * ```ts
 * v.is(NewPlantSchema, { id: 9223372036854775807n, name: 'Fern' }); // true
 * v.is(NewPlantSchema, { id: 1, name: 'Fern' }); // false: ids are bigints here
 * ```
 */
export const NewPlantSchema = v.pipe(
  v.object({
    id: v.pipe(
      v.bigint(),
      v.minValue(INT64_MIN),
      v.maxValue(INT64_MAX),
      v.description('Identification number of the plant'),
    ),
    ...PlantSchema.entries,
  }),
  v.description(
    'The request body of plant creation: every field of Plant plus its id. Other properties are ignored and not stored.',
  ),
);

/**
 * The body of every failure: `error` (the HTTP status, an int32) and `message`.
 *
 * @example
 * ```ts
 * v.is(ErrorSchema, { error: 409, message: 'A plant with this id already exists …' }); // true
 * ```
 */
export const ErrorSchema = v.pipe(
  v.object({
    error: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(INT32_MIN),
      v.maxValue(INT32_MAX),
      v.description('Numeric error indicator: the HTTP status of the answer.'),
    ),
    message: v.pipe(
      v.string(),
      v.description(
        'Error text: what was wrong, in words a client developer can act on. It never echoes the token, its claims or the submitted values.',
      ),
    ),
  }),
  v.description('The body of every failure of the route.'),
);
