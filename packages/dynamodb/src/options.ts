import { describeValue, optionError } from '@plantstore/core/adapter';
import type { Factory } from './client';

// DynamoDB's rule for table names: 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'.
const TABLE_NAME = /^[\w.-]{3,255}$/;

/**
 * The table option, or `fallback` when it is absent.
 *
 * @throws TypeError when it is not a DynamoDB table name
 */
export function tableOption(factory: Factory, table: unknown, fallback: string): string {
  if (table === undefined) return fallback;
  if (typeof table === 'string' && TABLE_NAME.test(table)) return table;
  return optionError(
    factory,
    'table',
    'must be a DynamoDB table name (3 to 255 of a-z A-Z 0-9 _ - .)',
    describeValue(table),
  );
}
