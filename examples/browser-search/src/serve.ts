// Serves the built page (dist/) on 127.0.0.1 so you can open it in a browser:  pnpm --filter browser-search serve
import { DIST_DIRECTORY } from './build.js';
import { startStaticServer } from './static-server.js';

const server = await startStaticServer(DIST_DIRECTORY);
console.log(`browser-search: open ${server.url} (Ctrl-C stops the server)`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
