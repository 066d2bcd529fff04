import { I18n } from '@adonisjs/i18n'
import i18nManager from '@adonisjs/i18n/services/main'
import { RequestValidator, type HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/**
 * Picks the language for server-made text (validation messages): the signed-in user's
 * preference, else the browser's Accept-Language, else English.
 */
export default class LocaleMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const supported = i18nManager.supportedLocales()
    const preferred = ctx.auth.user?.preferredLanguage
    const locale =
      (preferred && supported.includes(preferred) ? preferred : null) ??
      ctx.request.language(supported) ??
      i18nManager.defaultLocale
    ctx.i18n = i18nManager.locale(locale)
    ctx.containerResolver.bindValue(I18n, ctx.i18n)
    return next()
  }
}

/* Validation messages come from resources/lang/<locale>/validator.json. */
RequestValidator.messagesProvider = (ctx) => ctx.i18n.createMessagesProvider()

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    i18n: I18n
  }
}
