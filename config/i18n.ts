import app from '@adonisjs/core/services/app'
import { defineConfig, formatters, loaders } from '@adonisjs/i18n'

/**
 * Server-side messages (validation, mails). The React front end has its own catalogues
 * in resources/locales, loaded by i18next.
 */
const i18nConfig = defineConfig({
  defaultLocale: 'en',
  supportedLocales: ['en', 'fr', 'de', 'pt', 'pt-BR', 'es', 'ro', 'it', 'el'],
  fallbackLocales: { 'pt-BR': 'pt' },
  formatter: formatters.icu(),
  loaders: [loaders.fs({ location: app.languageFilesPath() })],
})

export default i18nConfig
