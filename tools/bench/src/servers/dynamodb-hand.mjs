// Baseline on DynamoDB (dynalite): the same job hand-written as one Express 5 handler with the
// same SDK client: a conditional PutItem (attribute_not_exists), and when the condition fails a
// strongly consistent GetItem of the stored plant, compared with the request.
import { createServer } from 'node:http';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import express from 'express5';
import { openDynamo } from './shared/dynalite.mjs';
import { errors, expressChecks } from './shared/hand-written.mjs';
import { serve } from './shared/serve.mjs';

const { client, table, close } = await openDynamo();

const app = express();
app.post('/plants', express.json(), async (req, res, next) => {
  try {
    const claims = await expressChecks(req, res);
    if (claims === undefined) return;
    const { id, name, tag } = req.body;
    const item = { id: { N: String(id) }, name: { S: name } };
    if (tag !== undefined) item.tag = { S: tag };
    if (claims.sub !== undefined) item.createdBy = { S: claims.sub };
    try {
      const put = { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(id)' };
      await client.send(new PutItemCommand(put));
      res.json({ name, tag });
      return;
    } catch (error) {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    }
    const get = { TableName: table, Key: { id: item.id }, ConsistentRead: true };
    const { Item } = await client.send(new GetItemCommand(get));
    if (Item?.name?.S === name && Item.tag?.S === tag) res.json({ name, tag });
    else res.status(409).json(errors.conflict);
  } catch (error) {
    next(error);
  }
});
serve(createServer(app), close);
