import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, targets } from '@adonisjs/core/logger'

const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'flowcraft',
      level: env.get('LOG_LEVEL', 'info'),
      transport: {
        targets: targets()
          .pushIf(!app.inProduction, targets.pretty())
          // Commands print what scripts read (a token, a sign-in link) on stdout: their logs
          // (an analytics event flushed on exit, a warning) go to stderr.
          .pushIf(
            app.inProduction,
            targets.file({ destination: app.getEnvironment() === 'console' ? 2 : 1 })
          )
          .toArray(),
      },
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
