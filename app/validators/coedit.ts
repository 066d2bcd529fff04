import vine from '@vinejs/vine'

/** Yjs updates are binary, sent base64; 4 MB covers a large draft sent whole after offline edits. */
const MAX_UPDATE_CHARS = 4_000_000

/** POST /api/coedit/:kind/:id/updates: changes made by one editor (docs/editor.md). */
export const coeditUpdateValidator = vine.compile(
  vine.object({
    clientId: vine.string().trim().minLength(1).maxLength(64),
    update: vine
      .string()
      .maxLength(MAX_UPDATE_CHARS)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/),
    /** The tab is hidden or the page left: the merged draft is written now, not a moment later. */
    write: vine.boolean().optional(),
  })
)

const point = () => vine.object({ x: vine.number(), y: vine.number() }).nullable().optional()

/** POST /api/coedit/:kind/:id/presence: where an editor's person is and what they edit. */
export const coeditPresenceValidator = vine.compile(
  vine.object({
    clientId: vine.string().trim().minLength(1).maxLength(64),
    cursor: point(),
    editing: vine.string().maxLength(128).nullable().optional(),
    viewport: vine
      .object({ x: vine.number(), y: vine.number(), zoom: vine.number().positive() })
      .nullable()
      .optional(),
    gone: vine.boolean().optional(),
  })
)
