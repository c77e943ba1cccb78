// Entry point of the release bundle that becomes the single executable (scripts/release). In a
// single executable argv[0] and argv[1] are both the executable's path, as under `node script.js`.
import { main } from './cli/main.js';

process.exitCode = await main(process.argv.slice(2));
