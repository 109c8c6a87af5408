export type { DynamoDbClientLike } from './client';
export { dynamoDbStore } from './dynamodb-store';
export type { DynamoDbStore, DynamoDbStoreOptions } from './dynamodb-store';
export { dynamoDbReplayStore } from './replay-store';
export type { DynamoDbReplayStore, DynamoDbReplayStoreOptions } from './replay-store';
export type { DynamoDbStoreBase, DynamoDbTableOptions } from './store-base';
