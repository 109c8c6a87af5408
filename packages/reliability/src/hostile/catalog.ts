import type { HostileCase } from './case';
import { depthCases, sizeCases } from './depth-and-size';
import { encodingCases } from './encodings';
import { framingCases } from './framing';
import { jsonSyntaxCases } from './json-syntax';
import { duplicateKeyCases, prototypeKeyCases } from './keys';
import { mediaTypeCases } from './media-types';
import { numberCases } from './numbers';
import { schemaCases } from './schema';
import { utf8Cases } from './utf8';

/**
 * Every malformed or adversarial body and header of the catalog, each with the exact answer the
 * contract (docs/errors.md) gives it.
 */
export const hostileCatalog: readonly HostileCase[] = [
  ...framingCases,
  ...mediaTypeCases,
  ...encodingCases,
  ...utf8Cases,
  ...jsonSyntaxCases,
  ...numberCases,
  ...duplicateKeyCases,
  ...depthCases,
  ...prototypeKeyCases,
  ...sizeCases,
  ...schemaCases,
];
