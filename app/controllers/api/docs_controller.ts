import type { HttpContext } from '@adonisjs/core/http'
import { appUrl } from '#config/app'
import { openApiDocument } from '#services/openapi'

function escape(text: string) {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!
  )
}

/** /api/docs: a readable page of the OpenAPI document, no CDN needed; JSON at /api/docs/openapi.json. */
export default class DocsController {
  async json({ response }: HttpContext) {
    return response.json(openApiDocument(appUrl))
  }

  async html({ request, response }: HttpContext) {
    const doc = openApiDocument(appUrl)
    if (request.accepts(['html', 'json']) === 'json') return response.json(doc)
    const rows = Object.entries(doc.paths)
      .flatMap(([path, ops]) =>
        Object.entries(ops as Record<string, { summary: string }>).map(
          ([method, op]) =>
            `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td><td>${escape(op.summary)}</td></tr>`
        )
      )
      .join('')
    response.header('content-type', 'text/html; charset=utf-8')
    return response.send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info.title)}</title>
<style>body{font:15px system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#111}td{padding:.35rem .6rem;border-bottom:1px solid #eee;vertical-align:top}code{font-size:13px}</style></head>
<body><h1>${escape(doc.info.title)}</h1><p>${escape(doc.info.description)}</p>
<p>OpenAPI document: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a></p>
<table>${rows}</table></body></html>`)
  }
}
