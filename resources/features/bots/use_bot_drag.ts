import { useState, type DragEvent } from 'react'

/** The drag data type of a bot card (HTML5 drag and drop onto a folder card or a breadcrumb). */
export const BOT_DRAG_TYPE = 'application/x-flowcraft-bot'

export function startBotDrag(event: DragEvent, botId: string) {
  event.dataTransfer.setData(BOT_DRAG_TYPE, botId)
  event.dataTransfer.setData('text/plain', botId)
  event.dataTransfer.effectAllowed = 'move'
}

function carriesBot(event: DragEvent) {
  return Array.from(event.dataTransfer.types).includes(BOT_DRAG_TYPE)
}

/**
 * Makes an element a drop target for bot cards: `over` is true while a bot is dragged above
 * it (for the highlight); `onDropBot` gets the bot's id. Disabled targets ignore drags.
 */
export function useBotDropTarget(onDropBot: (botId: string) => void, disabled = false) {
  const [over, setOver] = useState(false)
  if (disabled) return { over: false, dropProps: {} }
  return {
    over,
    dropProps: {
      onDragEnter: (event: DragEvent) => {
        if (!carriesBot(event)) return
        event.preventDefault()
        setOver(true)
      },
      onDragOver: (event: DragEvent) => {
        if (!carriesBot(event)) return
        event.preventDefault()
        event.dataTransfer.dropEffect = 'move'
        if (!over) setOver(true)
      },
      onDragLeave: (event: DragEvent) => {
        // Leaving for one of the target's own children is not leaving the target.
        const next = event.relatedTarget as Node | null
        if (next && (event.currentTarget as Node).contains(next)) return
        setOver(false)
      },
      onDrop: (event: DragEvent) => {
        setOver(false)
        const botId = event.dataTransfer.getData(BOT_DRAG_TYPE)
        if (!botId) return
        event.preventDefault()
        onDropBot(botId)
      },
    },
  }
}
