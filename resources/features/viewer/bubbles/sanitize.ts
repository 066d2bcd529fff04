import DOMPurify from 'dompurify'

let purifier: ReturnType<typeof DOMPurify> | null = null

/** Our own DOMPurify instance: its link hook must not change other users of the library. */
function getPurifier() {
  if (purifier) return purifier
  purifier = DOMPurify(window)
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank')
      node.setAttribute('rel', 'noopener noreferrer')
    }
  })
  return purifier
}

export function sanitizeHtml(html: string) {
  if (typeof window === 'undefined') return ''
  return getPurifier().sanitize(html, { USE_PROFILES: { html: true } })
}

/** A builder's custom rating icon: SVG only, no scripts or handlers. */
export function sanitizeSvg(svg: string) {
  if (typeof window === 'undefined') return ''
  return getPurifier().sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true } })
}
