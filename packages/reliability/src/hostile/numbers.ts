import { created, type HostileCase, httpCase, refused } from './case';

const withId = (idText: string, name = 'Num') => `{"id":${idText},"name":"${name}"}`;

/** Id spellings that are integers by value within int64: stored exactly. */
const exact: readonly [string, string, bigint][] = [
  ['the int64 maximum', '9223372036854775807', 9223372036854775807n],
  ['the int64 minimum', '-9223372036854775808', -9223372036854775808n],
  ['2^53 + 1 (a double would round it)', '9007199254740993', 9007199254740993n],
  ['-(2^53 + 1)', '-9007199254740993', -9007199254740993n],
  ['one below the int64 maximum', '9223372036854775806', 9223372036854775806n],
  ['-0', '-0', 0n],
  ['a zero fraction', '6001.0', 6001n],
  ['an exponent of zero', '6002e0', 6002n],
  ['a fraction moved by the exponent', '6.003e3', 6003n],
  ['a negative exponent that leaves an integer', '60040e-1', 6004n],
  ['six zeros of fraction', '6005.000000', 6005n],
  ['a capital E with a plus sign', '6.006E+3', 6006n],
  ['a leading zero before the fraction', '0.6007e4', 6007n],
  ['5,000 zeros of fraction', `6008.${'0'.repeat(5000)}`, 6008n],
  ['trailing zeros cancelled by the exponent', '60090000000000000000e-16', 6009n],
  ['5,000 trailing zeros cancelled by a 4-digit exponent', `6010${'0'.repeat(5000)}e-5000`, 6010n],
  ['1e18', '1e18', 1000000000000000000n],
  ['the int64 maximum less one in exponent form', '9.223372036854775806e18', 9223372036854775806n],
  [
    'the int64 minimum plus one in exponent form',
    '-9.223372036854775807e18',
    -9223372036854775807n,
  ],
  ['the int64 minimum with a zero fraction', '-9223372036854775808.0', -9223372036854775808n],
  ['zero with a huge exponent', '0e999999999999999999', 0n],
];

/** Id spellings that are not JSON numbers at all. */
const notNumbers: readonly [string, string][] = [
  ['a lone minus', '-'],
  ['a leading zero', '01'],
  ['a negative leading zero', '-01'],
  ['a trailing dot', '1.'],
  ['a leading dot', '.5'],
  ['a negative leading dot', '-.5'],
  ['an exponent without digits', '1e'],
  ['an exponent with a sign only', '1e+'],
  ['a capital exponent with a minus only', '1E-'],
  ['a plus sign', '+1'],
  ['hex', '0x1F'],
  ['digit separators', '1_000'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['-Infinity', '-Infinity'],
  ['two minus signs', '--1'],
  ['a space inside', '1 2'],
];

/** Integers past either end of int64, or numbers with a fraction. */
const outOfRange: readonly [string, string][] = [
  ['the int64 maximum plus one', '9223372036854775808'],
  ['the int64 minimum minus one', '-9223372036854775809'],
  ['the int64 maximum plus one in exponent form', '9.223372036854775808e18'],
  ['1e19', '1e19'],
  ['2^64', '18446744073709551616'],
  ['an exponent past any double', '1e999999999999999999999'],
  ['10,000 digits', `1${'0'.repeat(9999)}`],
  ['a 10,000-digit exponent', `1e${'9'.repeat(10000)}`],
  ['a negative 10,000-digit number', `-${'9'.repeat(10000)}`],
];

const fractions: readonly [string, string][] = [
  ['1.5', '1.5'],
  ['-1.5', '-1.5'],
  ['1e-1', '1e-1'],
  ['the int64 maximum and a half', '9223372036854775807.5'],
  ['a tiny exponent', '1e-999999999999999999999'],
  ['a one after 10,000 zeros of fraction', `0.${'0'.repeat(10000)}1`],
  ['2^53 + 0.5 (a double rounds it to an integer)', '9007199254740992.5'],
];

/** Numbers: int64 edges, exponents, huge digit strings, and what JSON does not allow. */
export const numberCases: readonly HostileCase[] = [
  ...exact.map(([what, text, id]) =>
    httpCase('numbers', `an id of ${what}`, withId(text, `Num ${id}`), created(id, `Num ${id}`)),
  ),
  ...notNumbers.map(([what, text]) =>
    httpCase('numbers', `an id of ${what}`, withId(text), refused(400, 'body_not_json')),
  ),
  ...outOfRange.map(([what, text]) =>
    httpCase('numbers', `an id of ${what}`, withId(text), refused(400, 'id_out_of_range')),
  ),
  ...fractions.map(([what, text]) =>
    httpCase('numbers', `an id of ${what}`, withId(text), refused(400, 'id_not_integer')),
  ),
  httpCase(
    'numbers',
    'an id of 2^53 + 1 as a string',
    withId('"9007199254740993"'),
    refused(400, 'schema_mismatch'),
  ),
  httpCase(
    'numbers',
    'a 10,000-digit number in an ignored member',
    `{"id":6011,"name":"Big","x":${'7'.repeat(10000)}}`,
    created(6011n, 'Big'),
  ),
];
