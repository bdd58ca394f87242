import { databaseStoreContract, sqliteServer } from './database-fixture.js';

databaseStoreContract('SQLite', sqliteServer);
