import { mysqlStore } from '@plantstore/mysql';
import type { Pool } from 'mysql2';
import { DataSource } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver.js';

export const dataSource = await new DataSource({
  type: 'mysql',
  connectorPackage: 'mysql2', // TypeORM prefers the older `mysql` package when both are installed
  url: process.env.MYSQL_URL ?? 'mysql://localhost/app',
  poolSize: 10,
}).initialize();

// Once initialised, TypeORM's MySQL driver holds its mysql2 pool as `pool` (typed `any`).
export const store = mysqlStore({ client: (dataSource.driver as MysqlDriver).pool as Pool });
