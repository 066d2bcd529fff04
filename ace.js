/*
| JavaScript entrypoint for running ace commands. It registers the TypeScript loader
| so that commands, models and migrations run straight from source in development.
*/
import 'ts-node-maintained/register/esm'
await import('./bin/console.js')
