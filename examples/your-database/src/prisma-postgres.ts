import { postgresStore } from '@plantstore/postgres';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

// Prisma 7's driver adapter takes a pg Pool: make it yourself, and give the store the same one.
export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
export const adapter = new PrismaPg(pool); // then: new PrismaClient({ adapter })
export const store = postgresStore({ client: pool });
