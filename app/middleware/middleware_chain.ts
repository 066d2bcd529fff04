import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/*
| The kernel's middleware lists run as one middleware each (start/kernel.ts). The framework
| makes a listed middleware through the container for every request and calls its handle()
| through the container too: for the 14 global middleware of a chat turn that was 28
| container resolutions per request (each testing whether the value is a class by printing
| its source, and awaiting its injections), a new CorsMiddleware normalising its config each
| time, and the promises of it all: a large share of the framework's cost of a turn, which
| itself does little else (docs/benchmarks/chat.md, issue 32).
|
| Here each listed class is made by the container once, at the first request, and the chain
| calls them in order. What a request sees is kept: each middleware's errors are answered
| by the app's exception handler at its own level, as the framework's runner does, so the
| middleware before it (the session committing its flash messages) go on as usual; and
| next() runs the rest once, however often it is called.
*/

type Handler = { handle(ctx: HttpContext, next: NextFn): unknown }
type MiddlewareImport = () => Promise<{ default: new (...args: any[]) => Handler }>
type ExceptionHandlerImport = () => Promise<{
  default: new (...args: any[]) => {
    report(error: unknown, ctx: HttpContext): unknown
    handle(error: unknown, ctx: HttpContext): unknown
  }
}>

interface Made {
  list: Handler[]
  respond(error: unknown, ctx: HttpContext): Promise<unknown>
}

async function makeAll(imports: MiddlewareImport[], handler: ExceptionHandlerImport) {
  const modules = await Promise.all(imports.map((load) => load()))
  const list = await Promise.all(modules.map((module) => app.container.make(module.default)))
  const exceptions = await app.container.make((await handler()).default)
  return {
    list,
    // What the framework does with an error a middleware throws: report, then answer it.
    async respond(error: unknown, ctx: HttpContext) {
      await exceptions.report(error, ctx)
      return exceptions.handle(error, ctx)
    },
  } satisfies Made
}

function step(made: Made, index: number, ctx: HttpContext, last: NextFn): Promise<unknown> {
  if (index === made.list.length) return Promise.resolve(last())
  let called = false
  const next: NextFn = () => {
    if (called) return
    called = true
    return step(made, index + 1, ctx, last) as ReturnType<NextFn>
  }
  try {
    return Promise.resolve(made.list[index].handle(ctx, next)).catch((error) =>
      made.respond(error, ctx)
    )
  } catch (error) {
    return made.respond(error, ctx)
  }
}

/**
 * A lazily imported middleware (for `server.use` and `router.use`) that runs `imports` in
 * order, each made once; `exceptionHandler` is the one given to `server.errorHandler`.
 */
export function middlewareChain(
  exceptionHandler: ExceptionHandlerImport,
  imports: MiddlewareImport[]
): () => Promise<{ default: new () => Handler }> {
  let making: Promise<Made> | undefined
  let made: Made | undefined
  class MiddlewareChain {
    async handle(ctx: HttpContext, next: NextFn) {
      made ??= await (making ??= makeAll(imports, exceptionHandler))
      return step(made, 0, ctx, next)
    }
  }
  return async () => ({ default: MiddlewareChain })
}
