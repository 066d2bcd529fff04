import { createContext, useContext } from 'react'
import type { EditorPlugin } from './types'

/** The plugins of this editor by id (static for the page). */
export const EditorPluginsContext = createContext<ReadonlyMap<string, EditorPlugin>>(new Map())

export function useEditorPlugin(id: string): EditorPlugin | undefined {
  return useContext(EditorPluginsContext).get(id)
}

export function useEditorPlugins(): ReadonlyMap<string, EditorPlugin> {
  return useContext(EditorPluginsContext)
}

/** The MIME type of a block dragged from the sidebar (plugin id) or moved (block id). */
export const NEW_BLOCK_MIME = 'application/x-flowcraft-new-block'
export const MOVE_BLOCK_MIME = 'application/x-flowcraft-move-block'
