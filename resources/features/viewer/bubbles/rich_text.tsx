import { Fragment, type ReactNode } from 'react'
import type { RichTextNode } from '#shared/chat/types'
import { safeUrl } from '../rich_text_utils'

/**
 * Slate-like nodes as React elements: no HTML string is ever built, so bot content (and
 * visitors' answers substituted into it) cannot inject markup.
 */

function renderLeaf(node: RichTextNode, key: number): ReactNode {
  let content: ReactNode = node.text ?? ''
  if (node.code) content = <code className="rounded bg-black/5 px-1 font-mono">{content}</code>
  if (node.bold) content = <strong>{content}</strong>
  if (node.italic) content = <em>{content}</em>
  if (node.underline) content = <u>{content}</u>
  if (node.strikethrough) content = <s>{content}</s>
  return <Fragment key={key}>{content}</Fragment>
}

function renderChildren(nodes: RichTextNode[] | undefined) {
  return (nodes ?? []).map((node, index) => renderNode(node, index))
}

function renderNode(node: RichTextNode, key: number): ReactNode {
  if (!node.children) return renderLeaf(node, key)
  const children = renderChildren(node.children)
  switch (node.type) {
    case 'a': {
      const href = safeUrl(node.url)
      return href ? (
        <a
          key={key}
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className="underline underline-offset-2"
        >
          {children}
        </a>
      ) : (
        <Fragment key={key}>{children}</Fragment>
      )
    }
    case 'ul':
      return (
        <ul key={key} className="list-disc ps-5">
          {children}
        </ul>
      )
    case 'ol':
      return (
        <ol key={key} className="list-decimal ps-5">
          {children}
        </ol>
      )
    case 'li':
      return <li key={key}>{children}</li>
    case 'h1':
    case 'h2':
    case 'h3':
      return (
        <p key={key} className="font-semibold">
          {children}
        </p>
      )
    case 'p':
    case undefined: {
      // An empty paragraph is a blank line the builder typed on purpose.
      const empty = (node.children ?? []).every((child) => !child.children && !child.text)
      return (
        <p key={key} className="min-h-[1lh] whitespace-pre-wrap">
          {empty ? null : children}
        </p>
      )
    }
    default:
      // Inline variables, list item contents ("lic") and unknown wrappers: their text only.
      return <Fragment key={key}>{children}</Fragment>
  }
}

export function RichText({ nodes }: { nodes: RichTextNode[] }) {
  return <div className="fc-rich-text grid gap-1 break-words">{renderChildren(nodes)}</div>
}
