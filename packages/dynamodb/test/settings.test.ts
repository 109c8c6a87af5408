import { describe, expect, it } from 'vitest';
import { dynamoDbReplayStore, dynamoDbStore, type DynamoDbClientLike } from '../src/index';
import { documentClient, lowLevelClient } from './services';

const client = lowLevelClient('http://127.0.0.1:9');

describe('the DynamoDB factories refuse what they cannot use, at the call', () => {
  const factories = { dynamoDbStore, dynamoDbReplayStore } as const;
  for (const [name, factory] of Object.entries(factories)) {
    it(`${name} throws a TypeError naming a client without send`, () => {
      expect(() => factory({ client: {} as DynamoDbClientLike })).toThrow(
        new TypeError(
          `${name}: option "client" must be a DynamoDBClient or a DynamoDBDocumentClient of the AWS SDK v3; received an instance of Object`,
        ),
      );
    });

    it(`${name} throws a TypeError for a table name DynamoDB refuses`, () => {
      for (const table of ['ab', 'plants table', 'x'.repeat(256)]) {
        expect(() => factory({ client, table })).toThrow(TypeError);
      }
    });

    it(`${name} throws a TypeError for an option it does not know`, () => {
      const options = { client, tabel: 'plants' } as unknown as { client: DynamoDbClientLike };
      expect(() => factory(options)).toThrow(
        new TypeError(`${name}: unknown option "tabel" (did you mean "table"?)`),
      );
    });

    it(`${name} takes either client and builds without sending anything`, () => {
      expect(factory({ client }).table).toMatch(/^plants|plantstore_dpop_replay$/);
      expect(
        factory({ client: documentClient('http://127.0.0.1:9'), table: 'a.b-c_d' }).table,
      ).toBe('a.b-c_d');
    });
  }
});
