import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  commands: [
    () => import('@adonisjs/core/commands'),
    () => import('@adonisjs/lucid/commands'),
    () => import('@adonisjs/mail/commands'),
  ],

  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    {
      file: () => import('@adonisjs/core/providers/repl_provider'),
      environment: ['repl', 'test'],
    },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/core/providers/edge_provider'),
    () => import('@adonisjs/session/session_provider'),
    () => import('#providers/vite_provider'),
    () => import('@adonisjs/shield/shield_provider'),
    () => import('@adonisjs/static/static_provider'),
    () => import('@adonisjs/cors/cors_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    () => import('@adonisjs/inertia/inertia_provider'),
    () => import('@adonisjs/bouncer/bouncer_provider'),
    () => import('@adonisjs/i18n/i18n_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/ally/ally_provider'),
    () => import('@adonisjs/mail/mail_provider'),
    () => import('@adonisjs/drive/drive_provider'),
    () => import('#sandbox/sandbox_provider'),
    () => import('#providers/queue_provider'),
    () => import('#providers/sdk_provider'),
    () => import('@adonisjs/transmit/transmit_provider'),
  ],

  preloads: [
    () => import('#start/routes'),
    () => import('#start/kernel'),
    () => import('#start/workflows'),
    () => import('#start/knowledge'),
    () => import('#start/channels'),
    () => import('#start/analytics'),
    { file: () => import('#start/plugins'), environment: ['web'] },
    // Server-sent events: the stream routes and who may listen to which channel.
    { file: () => import('#start/transmit'), environment: ['web', 'test'] },
  ],

  tests: {
    suites: [
      {
        // A plugin's own tests live in its folder (docs/plugins.md).
        files: ['tests/unit/**/*.spec(.ts|.js)', 'plugins/*/*.spec(.ts|.js)'],
        name: 'unit',
        timeout: 10000,
      },
      { files: ['tests/functional/**/*.spec(.ts|.js)'], name: 'functional', timeout: 30000 },
      { files: ['tests/browser/**/*.spec(.ts|.js)'], name: 'browser', timeout: 120000 },
    ],
    forceExit: true,
  },

  metaFiles: [
    { pattern: 'resources/views/**/*.edge', reloadServer: false },
    { pattern: 'public/**', reloadServer: false },
    { pattern: 'resources/lang/**', reloadServer: false },
    // The chat's strings, read by the visitor's not found page (app/services/chat/viewer_strings.ts).
    { pattern: 'resources/locales/*/viewer.json', reloadServer: false },
    // Bot templates are read at run time (app/services/bot_templates.ts).
    { pattern: 'database/templates/*.json', reloadServer: false },
    // The embed script's source: compiled on first request (app/services/chat/embed_script.ts).
    { pattern: 'resources/embed/**', reloadServer: false },
    // Every file of a plugin folder but its code (tsc compiles the .ts, Vite bundles the
    // .tsx): icon, locales, README and whatever a runner reads beside it. The build checks
    // they all arrived (bin/check_build.ts).
    { pattern: 'plugins/*/**/!(*.ts|*.tsx)', reloadServer: false },
  ],

  assetsBundler: false,
  hooks: {
    onBuildStarting: [() => import('@adonisjs/vite/build_hook')],
    // Fails the build (not a request) on a plugin file missing from build/ or a
    // development bundle among the assets.
    onBuildCompleted: [() => import('./bin/check_build.js')],
  },
})
