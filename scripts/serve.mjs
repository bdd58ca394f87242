// `npm run serve -- [config-file]`: the headless server, started as server-launch.mjs says.
import { runServer } from './server-launch.mjs';

await runServer(process.argv.slice(2));
