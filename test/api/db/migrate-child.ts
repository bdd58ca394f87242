// Run by migrations.test.ts as a separate process, to prove that two processes
// migrating one database at the same moment both succeed. Prints the names of
// the migrations it applied as JSON.
import { openDatabase } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';

const [url = '', user = '', password = ''] = process.argv.slice(2);
const db = await openDatabase({ url, user, password });
try {
  process.stdout.write(JSON.stringify(await migrateToLatest(db)));
} finally {
  await db.close();
}
