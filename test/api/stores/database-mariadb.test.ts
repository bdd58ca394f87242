import { startMariadb } from '../../support/mariadb.js';
import { databaseStoreContract } from './database-fixture.js';

databaseStoreContract('MariaDB', async () => {
  const db = await startMariadb('pier_store_test');
  return { config: db, stop: () => db.stop() };
});
