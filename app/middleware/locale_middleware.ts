import { I18n } from '@adonisjs/i18n'
import i18nManager from '@adonisjs/i18n/services/main'
import { RequestValidator, type HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { MessagesProviderContact } from '@vinejs/vine/types'
import { isPublicApiRequest, lazyContextProperty } from '#middleware/public_api_request'

/**
 * Picks the language for server-made text (validation messages): the signed-in user's
 * preference, else the browser's Accept-Language, else English. On the public endpoints
 * the choice is made only when a message needs it (most calls are valid and show none).
 */
function pickLocale(ctx: HttpContext) {
  const supported = i18nManager.supportedLocales()
  const preferred = ctx.auth.user?.preferredLanguage
  const locale =
    (preferred && supported.includes(preferred) ? preferred : null) ??
    ctx.request.language(supported) ??
    i18nManager.defaultLocale
  return i18nManager.locale(locale)
}

const lazyI18n = lazyContextProperty('i18n', pickLocale)

export default class LocaleMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isPublicApiRequest(ctx)) {
      // Nothing on these routes has I18n injected: no container binding.
      lazyI18n(ctx)
      return next()
    }
    ctx.i18n = pickLocale(ctx)
    ctx.containerResolver.bindValue(I18n, ctx.i18n)
    return next()
  }
}

/**
 * Validation messages come from resources/lang/<locale>/validator.json. VineJS asks for a
 * message only when a field fails, so the provider (and the language) is made then.
 */
export function validationMessages(ctx: HttpContext): MessagesProviderContact {
  let provider: MessagesProviderContact | undefined
  return {
    getMessage(...args) {
      provider ??= ctx.i18n.createMessagesProvider()
      return provider.getMessage(...args)
    },
  }
}

RequestValidator.messagesProvider = validationMessages

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    i18n: I18n
  }
}
