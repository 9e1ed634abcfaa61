import { defineConfig } from 'drizzle-kit';

// Each feature keeps its tables in `<feature>.sql.ts`; one migration history for all of them.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/**/*.sql.ts',
  out: './drizzle',
});
