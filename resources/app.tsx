/// <reference path="../adonisrc.ts" />
/// <reference path="../config/inertia.ts" />

import './css/app.css'
import { hydrateRoot, createRoot } from 'react-dom/client'
import { createInertiaApp } from '@inertiajs/react'
import { resolvePageComponent } from '@adonisjs/inertia/helpers'
import { initI18n } from '~/lib/i18n'
import { AppProviders } from '~/components/app_providers'

const appName = 'Flowcraft'

createInertiaApp({
  progress: { color: '#4f46e5' },
  title: (title) => (title ? `${title} - ${appName}` : appName),
  resolve: (name) =>
    resolvePageComponent(`./pages/${name}.tsx`, import.meta.glob('./pages/**/*.tsx')),
  setup({ el, App, props }) {
    const initial = props.initialPage.props as any
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
