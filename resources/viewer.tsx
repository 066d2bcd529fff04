/*
 * The visitor surface's own entry: the public bot page and the iframe every embed opens.
 * It renders the chat alone, without Inertia or the dashboard's providers, so a phone
 * downloads the chat and nothing a builder uses (docs/architecture.md, "The visitor
 * surface"). The server writes the page's props as JSON into #viewer-props
 * (resources/views/viewer.edge).
 */
import './css/viewer.css'
import { createRoot } from 'react-dom/client'
import { initViewerI18n } from '~/lib/viewer_i18n'
import ViewerShow, { type ViewerProps } from '~/pages/viewer/show'

const root = document.getElementById('viewer')
const source = document.getElementById('viewer-props')
if (root && source?.textContent) {
  const props = JSON.parse(source.textContent) as ViewerProps
  const render = () => createRoot(root).render(<ViewerShow {...props} />)
  // The visitor's language first; a failed load still renders (in English).
  initViewerI18n().then(render, render)
}
