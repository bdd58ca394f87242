import { startPostgres } from '../../support/postgres.js';
import { databaseStoreContract } from './database-fixture.js';

databaseStoreContract('PostgreSQL', async () => {
  const pg = await startPostgres('pier_store_test');
  return { config: pg, stop: () => pg.stop() };
});
