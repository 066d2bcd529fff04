import type { HttpContext } from '@adonisjs/core/http'
import app from '@adonisjs/core/services/app'
import { readdir, readFile } from 'node:fs/promises'
import { Marked } from 'marked'

/** A page name is a file of docs/ without its extension: nothing else can be asked for. */
const SLUG = /^[a-z0-9][a-z0-9_-]*$/

const markdown = new Marked({
  renderer: {
    // Links between the guides (`editor.md`, `docs/queue.md#leases`) stay in the app.
    link({ href, tokens }) {
      const text = this.parser.parseInline(tokens)
      const local = /^(?:\.\/|docs\/)?([a-z0-9][a-z0-9_-]*)\.md(#[\w-]*)?$/.exec(href ?? '')
      const target = local ? `/docs/${local[1]}${local[2] ?? ''}` : href
      const external = /^https?:\/\//.test(target)
      return `<a href="${target}"${external ? ' target="_blank" rel="noreferrer"' : ''}>${text}</a>`
    },
  },
})

async function guides() {
  const folder = app.makePath('docs')
  const files = (await readdir(folder)).filter((name) => name.endsWith('.md')).sort()
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(`${folder}/${file}`, 'utf8')
      const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? file
      return { slug: file.replace(/\.md$/, ''), title, text }
    })
  )
}

/**
 * /docs and /docs/{page}: the guides of docs/ read in the app, where the editors' graph menu
 * and the Help menu send builders unless DOCS_URL names a documentation site.
 * Public: the same files ship with the source.
 */
export default class DocsController {
  async show({ params, inertia, response }: HttpContext) {
    const all = await guides()
    const slug = String(params.page ?? 'editor')
    const page = SLUG.test(slug) ? all.find((guide) => guide.slug === slug) : undefined
    if (!page) {
      response.status(404)
      return inertia.render('errors/not_found', { error: 'Page not found' })
    }
    return inertia.render('docs/show', {
      pages: all.map(({ slug: s, title }) => ({ slug: s, title })),
      current: { slug: page.slug, title: page.title, html: await markdown.parse(page.text) },
    })
  }
}
