import { postgresStore } from '@plantstore/postgres';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

// The app's Drizzle, on the pg Pool it was given.
export const db = drizzle(new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }));

// The store on that same Pool: one pool for the app's queries and the plants.
export const store = postgresStore({ client: db.$client });
