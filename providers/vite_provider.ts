import type { ApplicationService } from '@adonisjs/core/types'
import { Vite } from '@adonisjs/vite'
import ViteMiddleware from '@adonisjs/vite/vite_middleware'
import type { ViteOptions } from '@adonisjs/vite/types'
// The container's `vite` binding type (declared by the package's provider).
import type {} from '@adonisjs/vite/vite_provider'

/**
 * @adonisjs/vite's provider, with one difference: a test run may serve the assets of a
 * production build (public/assets) instead of starting the Vite dev server. `npm test` builds
 * them once before the suites start (bin/test.ts, tests/test_assets.ts) and sets TEST_ASSETS to
 * `build`: the browser suite then loads a page in a dozen requests instead of the dev server's
 * thousand-odd modules per fresh browser context (docs/testing.md, "Assets in tests").
 */
export default class ViteProvider {
  #shouldRunVite: boolean

  constructor(protected app: ApplicationService) {
    const environment = app.getEnvironment()
    // `none`: a test run that renders no page (tests/test_assets.ts) starts no dev server either.
    const servesBuild =
      app.inTest && (process.env.TEST_ASSETS === 'build' || process.env.TEST_ASSETS === 'none')
    this.#shouldRunVite =
      (app.inDev || app.inTest) && (environment === 'web' || environment === 'test') && !servesBuild
  }

  register() {
    const vite = new Vite(this.#shouldRunVite, this.app.config.get<ViteOptions>('vite'))
    this.app.container.bind('vite', () => vite)
    this.app.container.singleton(ViteMiddleware, () => new ViteMiddleware(vite))
  }

  async boot() {
    const vite = await this.app.container.make('vite')
    if (this.app.usingEdgeJS) {
      const edge = await import('edge.js')
      const { edgePluginVite } = await import('@adonisjs/vite/plugins/edge')
      edge.default.use(edgePluginVite(vite))
    }
    if (this.#shouldRunVite) await vite.createDevServer()
  }

  async shutdown() {
    if (!this.#shouldRunVite) return
    const vite = await this.app.container.make('vite')
    await vite.stopDevServer()
  }
}
