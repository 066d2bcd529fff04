import { useMemo } from 'react'
import { marked } from 'marked'
import { sanitizeHtml } from './sanitize'

/** Markdown bubbles: parsed by marked, then sanitised, since the text may hold answers. */
export function MarkdownText({ markdown }: { markdown: string }) {
  const html = useMemo(
    () => sanitizeHtml(marked.parse(markdown, { async: false, breaks: true, gfm: true })),
    [markdown]
  )
  return (
    <div
      className="fc-rich-text grid gap-1 break-words [&_a]:underline [&_ol]:list-decimal [&_ol]:ps-5 [&_ul]:list-disc [&_ul]:ps-5"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  )
}
