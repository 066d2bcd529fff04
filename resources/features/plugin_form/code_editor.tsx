import { lazy, Suspense, useRef } from 'react'
import { cn } from '~/lib/utils'
import type { VariableSyntax } from './code_problems'
import type { FormVariable } from './types'
import type { ExpressionScope } from './expressions'

export interface CodeEditorProps {
  /** The input's id: the fallback textarea's, then the editor's content. */
  id: string
  /** The id of the visible label that names the editor (aria-labelledby). */
  labelId: string
  value: string
  onChange: (text: string) => void
  /** 'javascript', 'typescript', 'json', 'sql'; anything else is plain text. */
  lang: string
  variables?: readonly FormVariable[]
  /** How the text reaches the variables; without it nothing is offered. */
  variableSyntax?: VariableSyntax
  /**
   * What `{{` completes (variables, run data, nodes: expressions.ts), unless the code reads
   * variables by name (`variableSyntax: 'names'`).
   */
  scope?: ExpressionScope
  placeholder?: string
  readOnly?: boolean
  describedBy?: string
  invalid?: boolean
  required?: boolean
  testId: string
  /** Text with {{variables}} rather than code: the UI font, wrapped lines, no gutter. */
  prose?: boolean
  /** Set by the textarea drawn while the editor loads: where the builder was typing. */
  handoff?: Handoff
}

export interface Handoff {
  focused: boolean
  selection?: { anchor: number; head: number }
}

/** The resizable frame, the same around the textarea and the editor. */
export function frameClass(prose: boolean | undefined, invalid: boolean) {
  return cn(
    'relative min-w-0 resize-y overflow-hidden rounded-md border border-input shadow-xs dark:bg-input/20',
    'focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50',
    invalid && 'border-destructive',
    prose ? 'h-24 min-h-16' : 'h-40 min-h-20'
  )
}

/*
 * The editor and CodeMirror are one chunk of their own, fetched when the first code field
 * shows: the editors' first load does not carry them (docs/benchmarks/editor.md).
 */
const CodeEditorView = lazy(() => import('./code_editor_view'))

/**
 * A code field (code_editor_view.tsx): until its chunk has loaded, a textarea with the same
 * value and label, so that nothing typed meanwhile is lost; the editor then starts with that
 * text, and with the cursor and the focus where they were.
 */
export function CodeEditor(props: CodeEditorProps) {
  const handoff = useRef<Handoff>({ focused: false })
  const follow = (element: HTMLTextAreaElement) => {
    handoff.current.selection = { anchor: element.selectionStart, head: element.selectionEnd }
  }
  const fallback = (
    <div className="grid min-w-0 gap-1">
      <div
        data-testid={`${props.testId}-editor`}
        data-state="loading"
        className={frameClass(props.prose, !!props.invalid)}
      >
        <textarea
          id={props.id}
          value={props.value}
          onChange={(event) => {
            follow(event.currentTarget)
            props.onChange(event.target.value)
          }}
          onSelect={(event) => follow(event.currentTarget)}
          onFocus={(event) => {
            handoff.current.focused = true
            follow(event.currentTarget)
          }}
          onBlur={(event) => {
            // Removed for the editor (a blur Chromium may send then): the focus moves on.
            if (event.currentTarget.isConnected) handoff.current.focused = false
          }}
          placeholder={props.placeholder}
          readOnly={props.readOnly}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          aria-labelledby={props.labelId}
          aria-describedby={props.describedBy}
          aria-invalid={props.invalid || undefined}
          aria-required={props.required || undefined}
          data-testid={props.testId}
          data-variables={props.variableSyntax}
          className={cn(
            'block h-full w-full resize-none bg-transparent px-3 py-2 outline-none placeholder:text-muted-foreground',
            props.prose ? 'text-sm' : 'font-mono text-xs'
          )}
        />
      </div>
    </div>
  )
  return (
    <Suspense fallback={fallback}>
      <CodeEditorView {...props} handoff={handoff.current} />
    </Suspense>
  )
}
