import { postgresStore } from '@plantstore/postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';

// The app's Drizzle, on the postgres client it was given.
export const db = drizzle(postgres(process.env.DATABASE_URL ?? 'postgres://localhost/app'));

// The store on that same client.
export const store = postgresStore({ client: db.$client });
