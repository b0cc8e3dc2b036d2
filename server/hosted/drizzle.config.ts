import { defineConfig } from 'drizzle-kit';

/** `npx drizzle-kit generate --config server/hosted/drizzle.config.ts`: the hosted instance's migrations (PGlite and PostgreSQL). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/hosted/schema.ts',
  out: './server/hosted/migrations',
});
