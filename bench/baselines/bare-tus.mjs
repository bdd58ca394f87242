// Anchor: @tus/server with @tus/file-store and nothing else.
// Usage: node bare-tus.mjs <dir>; the endpoint is /files.
import { createServer } from 'node:http';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';

const tus = new Server({ path: '/files', datastore: new FileStore({ directory: process.argv[2] }) });
const server = createServer((req, res) => tus.handle(req, res));
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
