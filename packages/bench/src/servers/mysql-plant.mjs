// Ours on MariaDB: plantRouter on Express 5 with mysqlStore on a mysql2 Pool, in a fresh table.
import { createServer } from 'node:http';
import { plantRouter } from '@plantstore/express';
import { mysqlStore } from '@plantstore/mysql';
import express from 'express5';
import { openMysqlPool } from './shared/databases.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const database = openMysqlPool();
const store = mysqlStore({ client: database.client, table: database.table });
await store.ensureSchema();
const app = express();
const plants = plantRouter({ store, auth: benchAuth() });
app.use(plants);
await warmUpIfAsked(plants.service);
serve(createServer(app), async () => {
  await plants.service.close();
  await database.close();
});
