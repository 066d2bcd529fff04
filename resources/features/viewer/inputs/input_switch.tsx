import { Suspense, type ComponentType } from 'react'
import { viewers } from 'virtual:flowcraft/viewers'
import { slugOf } from '../../../../app/plugins/define_plugin'
import type { ChatInputProps } from './shared'
import { TextFieldInput } from './text_field'

/**
 * The chat component of an input block: its plugin's viewer.tsx (docs/plugins.md), found at
 * build time by vite/flowcraft_plugins.ts under the plugin's slug, which for an input plugin
 * is the slug of its id (the registry checks it). A viewer may be lazy (a payment form loads
 * its provider's SDK on first use): a placeholder shows meanwhile.
 */
function viewerOf(type: string): ComponentType<ChatInputProps> | undefined {
  return viewers[slugOf(type)]
}

/** Unknown input types (a plugin newer than this page, or one without a viewer) get a text field. */
export function ChatInputSwitch(props: ChatInputProps) {
  const Component = viewerOf(props.input.type)
  return (
    <Suspense
      fallback={<div className="ms-auto h-24 w-full max-w-md animate-pulse rounded bg-black/5" />}
    >
      {Component ? <Component {...props} /> : <TextFieldInput {...props} kind="text" />}
    </Suspense>
  )
}
