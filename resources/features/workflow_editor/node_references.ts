import { CODE_FIELD_SELECTOR, referenceAsCode } from '~/features/plugin_form/reference_code'

/**
 * The reference texts a mapped field gets (app/engine/workflow/references.ts reads them):
 * the node's own input, or an earlier node's output by its title (its id when untitled).
 */

function joined(path: string) {
  if (!path) return ''
  return path.startsWith('[') ? path : `.${path}`
}

export function inputReference(path: string) {
  return `{{$input${joined(path)}}}`
}

export function nodeReference(name: string, path: string) {
  const quote = name.includes('"') ? "'" : '"'
  return `{{$node[${quote}${name}${quote}]${joined(path)}}}`
}

export type TextField = HTMLInputElement | HTMLTextAreaElement | HTMLElement

/**
 * Fields a reference can go into: text inputs, text areas, and editable text (the code
 * editor's content), not checkboxes or numbers.
 */
export function isTextField(element: EventTarget | null): element is TextField {
  if (element instanceof HTMLTextAreaElement) return !element.readOnly && !element.disabled
  if (element instanceof HTMLInputElement) {
    return (
      ['text', 'search', 'url', 'email', 'tel', ''].includes(element.type) &&
      !element.readOnly &&
      !element.disabled
    )
  }
  return element instanceof HTMLElement && element.isContentEditable
}

/**
 * Puts text at the field's caret as typing would: the browser's own edit keeps undo and
 * fires the input event React (or the code editor) listens to; where it is refused, an
 * input or text area gets the value set the way React notices. A script's code is not
 * substituted: a reference goes there as the code that reads the same value.
 */
export function insertIntoField(field: TextField, reference: string) {
  const text = (field.closest(CODE_FIELD_SELECTOR) && referenceAsCode(reference)) || reference
  field.focus()
  if (document.execCommand?.('insertText', false, text)) return
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return
  const start = field.selectionStart ?? field.value.length
  const end = field.selectionEnd ?? start
  const next = field.value.slice(0, start) + text + field.value.slice(end)
  const prototype =
    field instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : HTMLInputElement.prototype
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, next)
  field.setSelectionRange(start + text.length, start + text.length)
  field.dispatchEvent(new Event('input', { bubbles: true }))
}
