// Ours on DynamoDB (dynalite): plantRouter on Express 5 with dynamoDbStore on the same SDK client.
import { createServer } from 'node:http';
import { dynamoDbStore } from '@plantstore/dynamodb';
import { plantRouter } from '@plantstore/express';
import express from 'express5';
import { openDynamo } from './shared/dynalite.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const dynamo = await openDynamo();
const store = dynamoDbStore({ client: dynamo.client, table: dynamo.table });
const app = express();
const plants = plantRouter({ store, auth: benchAuth() });
app.use(plants);
await warmUpIfAsked(plants.service);
serve(createServer(app), async () => {
  await plants.service.close();
  dynamo.close();
});
