import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { viewers } from 'virtual:flowcraft/viewers'
import { slugOf } from '../../../../app/plugins/define_plugin'
import type { ChatInputProps } from './shared'
import { TextFieldInput } from './text_field'

/**
 * The chat component of an input block: its plugin's viewer.tsx (docs/plugins.md), found at
 * build time by vite/flowcraft_plugins.ts under the plugin's slug, which for an input plugin
 * is the slug of its id (the registry checks it). Each viewer is its own chunk, downloaded
 * when a chat first needs it (docs/architecture.md, "The visitor surface"): the chat asks
 * for it as soon as a reply announces the input (preloadChatInput), while the bubbles before
 * it are shown, and a placeholder covers what is left of the wait.
 */
type Loaded = ComponentType<ChatInputProps>

const loading = new Map<string, Promise<Loaded>>()
const components = new Map<string, LazyExoticComponent<Loaded>>()

function load(slug: string): Promise<Loaded> | undefined {
  const loader = viewers[slug]
  if (!loader) return undefined
  let promise = loading.get(slug)
  if (!promise) {
    promise = loader() as Promise<Loaded>
    // A failed download (offline a moment) is asked again the next time.
    promise.catch(() => loading.delete(slug))
    loading.set(slug, promise)
  }
  return promise
}

/** Starts downloading an input's component; the chat calls it when a reply names the input. */
export function preloadChatInput(type: string) {
  load(slugOf(type))?.catch(() => {})
}

function viewerOf(type: string): LazyExoticComponent<Loaded> | undefined {
  const slug = slugOf(type)
  if (!viewers[slug]) return undefined
  let component = components.get(slug)
  if (!component) {
    component = lazy(() => load(slug)!.then((loaded) => ({ default: loaded })))
    components.set(slug, component)
  }
  return component
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
