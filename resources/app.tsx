/// <reference path="../adonisrc.ts" />
/// <reference path="../config/inertia.ts" />

import './css/app.css'
import { hydrateRoot, createRoot } from 'react-dom/client'
import { createInertiaApp } from '@inertiajs/react'
import { resolvePageComponent } from '@adonisjs/inertia/helpers'
import { initI18n } from '~/lib/i18n'
import { AppProviders } from '~/components/app_providers'

const appName = 'Flowcraft'
/** The public bot page is the bot's, titled by it alone (never "Flowcraft"). */
let botPage = false

createInertiaApp({
  progress: { color: '#4f46e5' },
  title: (title) => (botPage ? title : title ? `${title} - ${appName}` : appName),
  resolve: (name) =>
    resolvePageComponent(`./pages/${name}.tsx`, import.meta.glob('./pages/**/*.tsx')),
  setup({ el, App, props }) {
    const initial = props.initialPage.props as any
    botPage = props.initialPage.component.startsWith('viewer/')
    const tree = (
      <AppProviders>
        <App {...props} />
      </AppProviders>
    )
    // The page's language is loaded first; a failed load still renders (in English).
    const render = () => (el.hasChildNodes() ? hydrateRoot(el, tree) : createRoot(el).render(tree))
    initI18n(initial?.user?.preferredLanguage).then(render, render)
  },
})
