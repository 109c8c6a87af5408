// Ours on DynamoDB (dynalite): plantRouter on Express 5 with dynamoDbStore on the same SDK client.
import { dynamoDbStore } from '@plantstore/dynamodb';
import { openDynamo } from './shared/dynalite.mjs';
import { servePlantRouter } from './shared/plant-express.mjs';

const dynamo = await openDynamo();
await servePlantRouter(dynamoDbStore({ client: dynamo.client, table: dynamo.table }), dynamo.close);
