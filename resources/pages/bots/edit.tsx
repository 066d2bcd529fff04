import { lazy, Suspense } from 'react'
import { Head } from '@inertiajs/react'
import { PageEffects } from '~/components/page_effects'
import type { EditorPageProps } from '~/features/bot_editor/types'

/*
 * The editor is its own chunk, loaded by this page: its lazy parts (block form, Theme and
 * Settings tabs) import the editor's store, and a page chunk that shares code with chunks it
 * loads loses its entry in the Vite manifest, which the server needs to render this page.
 */
const BotEditor = lazy(() =>
  import('~/features/bot_editor/bot_editor').then((m) => ({ default: m.BotEditor }))
)

/** /bots/:id/edit, /theme and /settings: the bot editor (tab from the server). */
export default function BotEdit(props: EditorPageProps) {
  return (
    <>
      <PageEffects />
      <Head title={props.bot.name} />
      <Suspense fallback={<div className="h-dvh bg-background" />}>
        <BotEditor {...props} />
      </Suspense>
    </>
  )
}
