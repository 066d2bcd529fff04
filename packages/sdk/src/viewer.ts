import type { ReactNode, Ref, RefObject } from 'react'

/**
 * `@flowcraft/sdk/viewer` (`#sdk/viewer` in the app): what an input plugin's chat component
 * (viewer.tsx) may use from the chat page (docs/plugins.md, "An input's chat component"): the
 * props it receives, the themed parts, option readers, the sanitizers. The app provides it:
 * these are the chat's own React components, rendered by the app (React, or Preact on the
 * public page), so a plugin cannot carry copies. This module is their declaration: a plugin
 * package type-checks against it, and the app's bundle resolves the name to its implementation
 * (resources/sdk/viewer.ts, by an alias in vite.config.ts); resources/sdk/package_contract.ts
 * keeps the two in step. Outside the app's bundle there is nothing to import: the package
 * exports the types only.
 */

/** One comparison of a choice's display condition. */
export interface Comparison {
  id?: string
  variableId?: string
  comparisonOperator?: string
  value?: string
}

export interface ConditionContent {
  comparisons?: Comparison[]
  logicalOperator?: 'AND' | 'OR'
}

/** An item of the block (a choice, a picture): its own fields, as the bot file stores them. */
export interface Item {
  id: string
  blockId?: string
  outgoingEdgeId?: string
  /** Button text for choices, a ConditionContent for Condition items, ... */
  content?: unknown
  /** AB-test items: which path this item is. */
  path?: 'a' | 'b'
  displayCondition?: { isEnabled?: boolean; condition?: ConditionContent }
  /** Picture choice items. */
  pictureSrc?: string
  title?: string
  description?: string
  [key: string]: unknown
}

/** The input the chat waits on, as the server sends it. */
export interface ChatInput {
  id: string
  /** The block type: 'text input', 'choice input', ... */
  type: string
  /** The block's options, variables already substituted. */
  options: Record<string, unknown>
  items?: Item[]
  /** The variable's current value, when input prefill is on. */
  prefilledValue?: string
  /** Values computed at run time that are not options (e.g. a payment's client secret). */
  runtimeOptions?: Record<string, unknown>
  /** The question's reply timeout (the chat handles it). */
  timeout?: { seconds: number }
}

/** The visitor's answer. */
export interface ChatAnswer {
  text: string
  /** Shown in the guest bubble instead of `text` (a file count, a payment's success). */
  display?: string
  attachedFileUrls?: string[]
}

export interface UploadProgress {
  loaded: number
  total: number
}

/** What a viewer.tsx's default export receives. */
export interface ChatInputProps {
  input: ChatInput
  /** True while the answer travels: the input stays visible but cannot be used. */
  disabled: boolean
  onSubmit: (answer: ChatAnswer) => void
  /** Uploads one file for this input's block; resolves with its URL. */
  upload: (
    file: File,
    onProgress?: (progress: UploadProgress) => void,
    signal?: AbortSignal
  ) => Promise<string>
}

export type FieldKind = 'text' | 'number' | 'email' | 'url'

/** What `cn` joins: class names, lists of them, `{ name: condition }` records. */
export type ClassValue =
  ClassValue[] | Record<string, any> | string | number | bigint | null | boolean | undefined

/** A non-empty text option at a dotted path ("labels.button"); blank labels give undefined. */
export declare function optionText(
  options: Record<string, unknown>,
  path: string
): string | undefined

/** A number option (numbers may arrive as text once a {{variable}} is substituted). */
export declare function optionNumber(
  options: Record<string, unknown>,
  path: string
): number | undefined

export declare function optionFlag(
  options: Record<string, unknown>,
  path: string
): boolean | undefined

/** Focus on appear; text fields skip it on touch screens (the keyboard would hide the question). */
export declare function useAutoFocus<T extends HTMLElement>(
  isTextField?: boolean
): RefObject<T | null>

/** The themed send button (its label defaults to the chat's "Send"). */
export declare function SendButton(props: {
  ref?: Ref<HTMLButtonElement>
  label?: string
  disabled?: boolean
  sending?: boolean
  type?: 'submit' | 'button'
  onClick?: () => void
  className?: string
}): ReactNode

/** The right-aligned slot every input sits in, under the last bubble. */
export declare function InputRow(props: { children: ReactNode; wide?: boolean }): ReactNode

/** An error line under the input (nothing when empty). */
export declare function InputError(props: { children?: ReactNode }): ReactNode

/** A search box over long lists of choices. */
export declare function FilterBox(props: {
  value: string
  onChange: (value: string) => void
  placeholder: string
  inputRef?: Ref<HTMLInputElement>
  disabled?: boolean
}): ReactNode

/** Case- and accent-insensitive, so "cafe" finds "Café". */
export declare function normalizeSearch(text: string): string

/** The chosen items' texts in the order the builder gave them, joined by ", ". */
export declare function joinSelected(
  texts: string[],
  selected: ReadonlySet<string>,
  ids: string[]
): string

/**
 * The selection of a choice-like input: with `multiple` off a click answers at once with the
 * entry's value; with it on, clicks toggle entries and `submitSelection` answers with the
 * chosen values in the builder's order.
 */
export declare function useChoiceSelection<T extends { id: string }>(options: {
  entries: readonly T[]
  valueOf: (entry: T) => string | undefined
  multiple: boolean
  disabled: boolean | undefined
  onSubmit: (answer: ChatAnswer) => void
  initial?: () => ReadonlySet<string>
}): { selected: ReadonlySet<string>; choose: (id: string) => void; submitSelection: () => void }

/** One themed field with its send button: a text-like input is `<TextFieldInput {...props} kind="email" />`. */
export declare function TextFieldInput(props: ChatInputProps & { kind: FieldKind }): ReactNode

/** A refused chat call (an upload): `message` and `description` come from the server. */
export declare class ChatApiError extends Error {
  status: number
  description?: string
  constructor(message: string, status: number, description?: string)
}

/** What to show for a failed chat call: the server's reason, translated, else `fallback`. */
export declare function chatErrorText(error: unknown, fallback: string): string

/** A builder's HTML, safe to render (no scripts or handlers); empty outside a browser. */
export declare function sanitizeHtml(html: string): string

/** A builder's SVG icon, safe to render; empty outside a browser. */
export declare function sanitizeSvg(svg: string): string

/** A link target that is safe to follow: http(s), mailto, tel or a path of the app; a bare domain gets https. Else undefined. */
export declare function safeUrl(url: unknown): string | undefined

/** Joins class names (clsx) and merges conflicting Tailwind classes (tailwind-merge). */
export declare function cn(...inputs: ClassValue[]): string
