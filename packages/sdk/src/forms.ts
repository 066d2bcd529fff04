import type { ComponentProps, ReactNode } from 'react'
import type { PluginFormProps } from './form_types.js'

/**
 * `@flowcraft/sdk/forms` (`#sdk/forms` in the app): what a plugin's custom form.tsx may use
 * from the editor (docs/plugins.md, "A custom form"). The app provides it: these parts are
 * the editor's own React components, rendered by the app's React, so a plugin cannot carry
 * copies. This module is their declaration: a plugin package type-checks against it, and the
 * app's bundle resolves the name to its implementation (resources/sdk/forms.ts, by an alias in
 * vite.config.ts); resources/sdk/package_contract.ts keeps the two in step. Outside the app's
 * bundle there is nothing to import: the package exports the types only.
 */

export type {
  FormCredentials,
  FormDescription,
  FormErrors,
  FormField,
  FormVariable,
  PluginFormProps,
  VariableFieldProps,
} from './form_types.js'

/** What a plugin's own form.tsx receives: the same props as the generated form. */
export type CustomFormProps = PluginFormProps

/** What a block's test run showed: its logs and the variables it would set. */
export interface TestOutcome {
  logs: { status: 'success' | 'info' | 'error'; description: string; details?: unknown }[]
  variablesSet: { id: string; name: string; value: unknown }[]
}

export interface HttpRequestTestFormProps extends CustomFormProps {
  /** The block type the test runs (the HTTP request plugin or a service's webhook block). */
  blockType: string
  /** Shown above the Test button (what the test sends, say). */
  hint?: string
}

/** The editor's button: a `<button>` (or its child, with `asChild`) in the app's styles. */
export interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'default' | 'destructive' | 'outline' | 'secondary' | 'ghost' | 'link' | null
  size?: 'default' | 'sm' | 'lg' | 'icon' | 'icon-sm' | null
  asChild?: boolean
}

export interface JsonFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  signal?: AbortSignal
  /** Lets the request outlive the page (sent while the tab closes). */
  keepalive?: boolean
}

/** The form the editor generates from the declaration: every field kind, showIf, errors. */
export declare function PluginForm(props: PluginFormProps): ReactNode

/**
 * The generated form plus a Test button (bot editor only): the block of type `type` runs on
 * the server with the workspace's stored credentials and a value typed for each variable it
 * uses; its logs and the variables it would set show below.
 */
export declare function BlockTestForm(props: PluginFormProps & { type: string }): ReactNode

/**
 * Runs a block of the bot being edited on the server and keeps its outcome, for a form's own
 * Test button. `botId` is undefined outside the bot editor (show no button then).
 */
export declare function useBlockTest(
  type: string,
  failedText: string
): {
  botId: string | undefined
  running: boolean
  outcome: TestOutcome | null
  error: string | null
  run: (options: Record<string, unknown>, values: Record<string, string>) => Promise<void>
}

/** The variables a tested block would set, with their values. */
export declare function VariablesSet(props: { outcome: TestOutcome }): ReactNode

/** The HTTP request form (`httpRequestFields`) and "Test the request" with its answer. */
export declare function HttpRequestTestForm(props: HttpRequestTestFormProps): ReactNode

export declare function Button(props: ButtonProps): ReactNode

/** A failed jsonFetch: `message` and `description` are ready to show, in the user's language. */
export declare class HttpError extends Error {
  status: number
  description?: string
  errors?: unknown
  constructor(message: string, status: number, description?: string, errors?: unknown)
}

/**
 * A JSON call to the app's own API with the user's session (and its XSRF header); throws
 * HttpError when the answer is not a success.
 */
export declare function jsonFetch<T = unknown>(url: string, options?: JsonFetchOptions): Promise<T>
