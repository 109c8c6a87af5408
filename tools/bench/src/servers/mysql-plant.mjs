// Ours on MariaDB: plantRouter on Express 5 with mysqlStore on a mysql2 Pool, in a fresh table.
import { mysqlStore } from '@plantstore/mysql';
import { openMysqlPool } from './shared/databases.mjs';
import { servePlantRouter } from './shared/plant-express.mjs';

const database = openMysqlPool();
const store = mysqlStore({ client: database.client, table: database.table });
await store.ensureSchema();
await servePlantRouter(store, database.close);
