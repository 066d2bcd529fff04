import { Head } from '@inertiajs/react'
import { PageEffects } from '~/components/page_effects'
import { BotEditor } from '~/features/bot_editor/bot_editor'
import type { EditorPageProps } from '~/features/bot_editor/types'

/** /bots/:id/edit, /theme and /settings: the bot editor (tab from the server). */
export default function BotEdit(props: EditorPageProps) {
  return (
    <>
      <PageEffects />
      <Head title={props.bot.name} />
      <BotEditor {...props} />
    </>
  )
}
