import { postgresStore } from '@plantstore/postgres';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

export const dataSource = await new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL ?? 'postgres://localhost/app',
  poolSize: 10,
}).initialize();

// Once initialised, TypeORM's driver holds its pg Pool as `master` (typed `any` by TypeORM).
export const store = postgresStore({
  client: (dataSource.driver as PostgresDriver).master as pg.Pool,
});
