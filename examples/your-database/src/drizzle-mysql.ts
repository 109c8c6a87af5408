import { mysqlStore } from '@plantstore/mysql';
import { drizzle } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';

// The app's Drizzle, on the mysql2 pool it was given.
export const db = drizzle({
  client: mysql.createPool({ uri: process.env.MYSQL_URL ?? 'mysql://localhost/app' }),
});

// The store on that same pool.
export const store = mysqlStore({ client: db.$client });
