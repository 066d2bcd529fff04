import app from '@adonisjs/core/services/app'
import { HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import type { StatusPageRange, StatusPageRenderer } from '@adonisjs/core/types/http'
import { errors as vineErrors } from '@vinejs/vine'
import { errors as authErrors } from '@adonisjs/auth'
import { errors as bouncerErrors } from '@adonisjs/bouncer'
import { errors as limiterErrors } from '@adonisjs/limiter'
import { errors as shieldErrors } from '@adonisjs/shield'
import AppError from '#exceptions/app_error'
import { REQUEST_LIMIT_CODES } from '#services/request_limits'
import { isDependencyOutage, OUTAGE_RETRY_AFTER_SECONDS } from '#services/dependency_outage'

function isJsonRequest(ctx: HttpContext) {
  return (
    ctx.request.url().startsWith('/api/') ||
    (!ctx.request.header('x-inertia') && ctx.request.accepts(['html', 'json']) === 'json')
  )
}

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!
  )
}

/** The status an error asks for (400 to 599), 500 when it names none. */
function httpErrorOf(error: unknown) {
  const { status, message, code } = (error ?? {}) as {
    status?: unknown
    message?: unknown
    code?: unknown
  }
  return {
    status:
      Number.isInteger(status) && (status as number) >= 400 && (status as number) < 600
        ? (status as number)
        : 500,
    message: typeof message === 'string' && message !== '' ? message : 'Request failed',
    code: typeof code === 'string' ? code : undefined,
  }
}

export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = !app.inProduction

  protected renderStatusPages = app.inProduction

  protected statusPages: Record<StatusPageRange, StatusPageRenderer> = {
    '404': (error, { inertia }) => inertia.render('errors/not_found', { error: error.message }),
    '500..599': (_error, { inertia }) => inertia.render('errors/server_error', {}),
  }

  async handle(error: unknown, ctx: HttpContext) {
    const json = isJsonRequest(ctx)

    // Refused bodies fail before the session exists: answered here, with no flash or redirect.
    const code = (error as { code?: unknown } | null)?.code
    if (typeof code === 'string' && REQUEST_LIMIT_CODES.has(code)) {
      const status = (error as { status?: number }).status ?? 400
      const message = error instanceof AppError ? error.title : (error as Error).message
      const description = error instanceof AppError ? error.description : undefined
      if (json) return ctx.response.status(status).send({ message, description, code })
      const text = [message, description].filter(Boolean).join(' ')
      return ctx.response
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        .send(`<!doctype html><title>${status}</title><p>${escapeHtml(text)}</p>`)
    }

    if (error instanceof vineErrors.E_VALIDATION_ERROR && json) {
      const messages = error.messages as { field: string; message: string }[]
      return ctx.response.status(422).send({
        message: messages[0]?.message ?? 'Invalid input',
        errors: messages,
      })
    }

    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) {
      const message = 'Too many requests. Try again later'
      if (json) return ctx.response.status(429).send({ message })
      ctx.session?.flash('toast', { type: 'error', title: message })
      ctx.session?.flashErrors({ email: message })
      return ctx.response.redirect().withQs().back()
    }

    if (error instanceof AppError) {
      const body = {
        message: error.title,
        description: error.description,
        field: error.field,
        ...(error.issues ? { issues: error.issues } : {}),
      }
      if (json) return ctx.response.status(error.status).send(body)
      if (error.status === 404) return super.handle(error, ctx)
      ctx.session.flash('toast', {
        type: 'error',
        title: error.title,
        ...(error.description ? { description: error.description } : {}),
      })
      if (error.field) {
        ctx.session.flashErrors({ [error.field]: error.description ?? error.title })
      }
      ctx.session.flashAll()
      return ctx.response.redirect().withQs().back()
    }

    if (error instanceof bouncerErrors.E_AUTHORIZATION_FAILURE) {
      if (json) return ctx.response.status(403).send({ message: 'Forbidden' })
      ctx.session.flash('toast', {
        type: 'error',
        title: 'Forbidden',
        description: "You don't have access to this.",
      })
      return ctx.response.redirect().withQs().back()
    }

    if (error instanceof shieldErrors.E_BAD_CSRF_TOKEN && json) {
      return ctx.response
        .status(403)
        .send({ message: 'Invalid or missing CSRF token. Reload the page and try again.' })
    }

    if (error instanceof authErrors.E_UNAUTHORIZED_ACCESS && json) {
      return ctx.response.status(401).send({ message: 'Unauthorized' })
    }

    // The database or Redis is out of reach: nothing the client did, and it may try again.
    // A plain page for browsers too: the Inertia error page needs the session (the database).
    if (isDependencyOutage(error)) {
      const message = 'The service is temporarily unavailable. Try again in a few seconds.'
      ctx.response.status(503).header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS))
      if (json) return ctx.response.send({ message, code: 'E_SERVICE_UNAVAILABLE' })
      return ctx.response
        .header('content-type', 'text/html; charset=utf-8')
        .send(`<!doctype html><title>503</title><p>${escapeHtml(message)}</p>`)
    }

    // API clients get JSON whatever they sent as Accept (the framework would pick HTML), and
    // a server error never shows its internals (SQL, paths): the log has them, under the
    // request id given here.
    if (json && typeof (error as { handle?: unknown } | null)?.handle !== 'function') {
      const { status, message, code: errorCode } = httpErrorOf(error)
      if (status >= 500) {
        return ctx.response.status(status).send({
          message: 'Internal server error',
          code: 'E_INTERNAL_SERVER_ERROR',
          requestId: ctx.request.id() ?? null,
        })
      }
      return ctx.response
        .status(status)
        .send({ message, ...(errorCode ? { code: errorCode } : {}) })
    }

    return super.handle(error, ctx)
  }

  async report(error: unknown, ctx: HttpContext) {
    return super.report(error, ctx)
  }
}
