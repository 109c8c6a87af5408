import type { PlantServiceErrorCode } from '@plantstore/core';
import { scanJson, type ValueSource } from './json-scan';

/** A plant as the oracle derives it from the body's source text. */
export interface OraclePlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

/** The oracle's verdict on a body: the plant it holds, or the refusal with every code it allows. */
export type BodyVerdict =
  | { readonly valid: true; readonly plant: OraclePlant }
  | {
      readonly valid: false;
      readonly status: 400 | 413;
      readonly codes: readonly PlantServiceErrorCode[];
    };

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const NUMBER_PARTS = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

const refuse = (code: PlantServiceErrorCode, ...more: PlantServiceErrorCode[]): BodyVerdict => ({
  valid: false,
  status: code === 'body_too_large' ? 413 : 400,
  codes: [code, ...more],
});

/**
 * The exact value of a JSON number from its digits: an int64, or why it is not one. BigInt
 * arithmetic on the decimal significand; no float is involved.
 *
 * @param text - the number's source text
 * @returns the value, `fraction` or `out of range`
 */
export function exactInteger(text: string): bigint | 'fraction' | 'out of range' {
  const match = NUMBER_PARTS.exec(text);
  if (match === null) throw new Error(`not a JSON number: ${text.slice(0, 40)}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let scale = BigInt(exponent) - BigInt(fraction.length);
  const trimmed = digits.replace(/0+$/, '');
  scale += BigInt(digits.length - trimmed.length);
  digits = trimmed;
  // The significand now ends in a non-zero digit, so a negative scale always leaves a fraction.
  if (scale < 0n) return 'fraction';
  if (BigInt(digits.length) + scale > 19n) return 'out of range';
  const magnitude = BigInt(digits) * 10n ** scale;
  const value = sign === '-' ? -magnitude : magnitude;
  return value > INT64_MAX || value < INT64_MIN ? 'out of range' : value;
}

function idIssue(source: ValueSource | undefined): PlantServiceErrorCode | bigint {
  if (source === undefined) return 'field_missing';
  if (source.kind !== 'number') return 'schema_mismatch';
  const value = exactInteger(source.text);
  if (value === 'fraction') return 'id_not_integer';
  if (value === 'out of range') return 'id_out_of_range';
  return value;
}

type StringVerdict =
  { readonly issue: PlantServiceErrorCode } | { readonly text: string } | undefined;

function stringIssue(source: ValueSource | undefined, required: boolean): StringVerdict {
  if (source === undefined) return required ? { issue: 'field_missing' } : undefined;
  if (source.kind !== 'string') return { issue: 'schema_mismatch' };
  const text = JSON.parse(source.text) as string;
  return text.includes('\u0000') ? { issue: 'string_contains_nul' } : { text };
}

/**
 * Judges a request body the way the contract describes it, written independently of the route:
 * size, strict UTF-8 by round trip through `Buffer`, one BOM, the {@link scanJson} scanner checked
 * against `JSON.parse`, then the NewPlant schema with ids evaluated exactly from their digits.
 *
 * @param bytes - the body as sent
 * @param limit - the body limit in bytes
 * @returns the plant the route must store, or the refusal and the codes it may carry
 * @throws Error when the scanner and `JSON.parse` disagree on the grammar (a bug of the oracle)
 */
export function judgeBody(bytes: Uint8Array, limit = 16_384): BodyVerdict {
  if (bytes.length > limit) return refuse('body_too_large');
  let text = Buffer.from(bytes).toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return refuse('body_invalid_utf8');
  if (text.startsWith('\ufeff')) text = text.slice(1);
  if (/^[ \t\r\n]*$/.test(text)) return refuse('body_empty');
  const scan = scanJson(text);
  let parses = true;
  try {
    JSON.parse(text);
  } catch {
    parses = false;
  }
  if (parses !== (scan.grammarError === undefined)) {
    throw new Error(
      `oracle: the scanner and JSON.parse disagree on ${JSON.stringify(text.slice(0, 200))}`,
    );
  }
  const first = scan.problems[0];
  if (scan.grammarError !== undefined) {
    // The route stops at the first problem it meets; positions of the two scanners may differ by a
    // character, so a structural problem found before the grammar error is allowed too.
    return first !== undefined && first.at < scan.grammarError
      ? refuse('body_not_json', first.code)
      : refuse('body_not_json');
  }
  if (first !== undefined) return refuse(first.code);
  if (scan.top !== 'object') return refuse('body_not_object');
  const id = idIssue(scan.members.get('id'));
  const name = stringIssue(scan.members.get('name'), true);
  const tag = stringIssue(scan.members.get('tag'), false);
  if (typeof id !== 'bigint') return refuse(id);
  if (name === undefined) throw new Error('unreachable: a required field always has a verdict');
  if ('issue' in name) return refuse(name.issue);
  if (tag !== undefined && 'issue' in tag) return refuse(tag.issue);
  const plant =
    tag === undefined ? { id, name: name.text } : { id, name: name.text, tag: tag.text };
  return { valid: true, plant };
}
