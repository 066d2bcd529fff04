import { spawnSync } from 'node:child_process'

/**
 * The built app (`node ace build`'s output) run by a bench on SQLite: the environment its
 * server and its ace commands get, and a way to run those commands.
 */
export function sqliteApp(options: {
  out: string
  port: number
  db: string
  extraEnv?: Record<string, string>
}) {
  const env = () => ({
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${options.port}`,
    DB_CONNECTION: 'sqlite',
    SQLITE_PATH: options.db,
    LOG_LEVEL: 'warn',
    SMTP_HOST: '',
    ...options.extraEnv,
  })
  const ace = (args: string[]) => {
    const result = spawnSync(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], {
      cwd: options.out,
      env: env(),
      encoding: 'utf8',
    })
    if (result.status !== 0)
      throw new Error(`ace ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`)
    return result.stdout
  }
  return { env, ace }
}
