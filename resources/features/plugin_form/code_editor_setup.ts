/**
 * CodeMirror 6 for the code and JSON fields of the plugin forms. Loaded on first use by
 * code_editor.tsx (a dynamic import): the editors' first load does not carry it.
 */
import { EditorState, Compartment, type Extension } from '@codemirror/state'
import {
  EditorView,
  keymap,
  placeholder as placeholderExtension,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  drawSelection,
} from '@codemirror/view'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import {
  bracketMatching,
  HighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language'
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  startCompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete'
import { linter, type Diagnostic } from '@codemirror/lint'
import { searchKeymap } from '@codemirror/search'
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript'
import { json } from '@codemirror/lang-json'
import { sql } from '@codemirror/lang-sql'
// A dependency of @codemirror/language (always installed with it): the highlighting tags.
import { tags } from '@lezer/highlight'
import { applySuggestion, type Suggestion } from './expressions'
import { referenceAsCode } from './reference_code'
import {
  jsonProblem,
  OPEN_REFERENCE,
  referencesAsNames,
  type CodeProblem,
  type VariableSyntax,
} from './code_problems'

export type { CodeProblem }

export interface CodeEditorConfig {
  parent: HTMLElement
  value: string
  lang: string
  /** How the text reaches the flow's variables: what a completion or the picker inserts. */
  variableSyntax?: VariableSyntax
  variableNames: () => readonly string[]
  /** What `{{` offers (expressions.ts) where the text takes {{references}}. */
  suggest: (query: string) => Suggestion[]
  /** Makes the variable a "Create variable" choice names; its name, or undefined. */
  createVariable: (name: string) => string | undefined
  kindLabel: (kind: Suggestion['kind']) => string
  createLabel: (name: string) => string
  placeholder?: string
  readOnly: boolean
  /** Prose (text with {{variables}}) rather than code: no line numbers, the UI font. */
  prose?: boolean
  contentAttributes: Record<string, string>
  /** The selection to start with (the fallback textarea's, when it had the focus). */
  selection?: { anchor: number; head: number }
  focus?: boolean
  onChange: (text: string) => void
  onProblems: (problems: CodeProblem[]) => void
  onFocus: () => void
  labels: { syntaxError: (line: number) => string; invalidJson: (line: number) => string }
}

export interface CodeEditorHandle {
  setValue: (text: string) => void
  setReadOnly: (readOnly: boolean) => void
  setAttributes: (attributes: Record<string, string>) => void
  /** Puts a variable where the cursor was (the panel's Variables picker). */
  insertVariable: (name: string) => void
  destroy: () => void
}

/*
 * Colours as custom properties: one set for the light theme, one under the app's `dark`
 * class, so the editor follows the theme switch without being rebuilt.
 */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword], color: 'var(--cm-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--cm-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--cm-number)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--cm-comment)' },
  {
    tag: [tags.function(tags.variableName), tags.function(tags.propertyName)],
    color: 'var(--cm-function)',
  },
  { tag: [tags.propertyName, tags.attributeName], color: 'var(--cm-property)' },
  { tag: [tags.typeName, tags.className], color: 'var(--cm-type)' },
  { tag: [tags.operator, tags.punctuation, tags.bracket], color: 'var(--cm-punctuation)' },
  { tag: tags.invalid, color: 'var(--cm-invalid)' },
])

const theme = EditorView.theme({
  '&': {
    'height': '100%',
    'fontSize': '0.75rem',
    'backgroundColor': 'transparent',
    'color': 'var(--foreground)',
    '--cm-keyword': 'oklch(0.48 0.2 300)',
    '--cm-string': 'oklch(0.48 0.13 150)',
    '--cm-number': 'oklch(0.5 0.15 40)',
    '--cm-comment': 'oklch(0.55 0.02 265)',
    '--cm-function': 'oklch(0.47 0.17 255)',
    '--cm-property': 'oklch(0.45 0.12 220)',
    '--cm-type': 'oklch(0.5 0.14 70)',
    '--cm-punctuation': 'oklch(0.45 0.02 265)',
    '--cm-invalid': 'oklch(0.55 0.22 27)',
  },
  '.dark &': {
    '--cm-keyword': 'oklch(0.78 0.14 310)',
    '--cm-string': 'oklch(0.8 0.14 145)',
    '--cm-number': 'oklch(0.8 0.13 60)',
    '--cm-comment': 'oklch(0.68 0.02 265)',
    '--cm-function': 'oklch(0.8 0.12 250)',
    '--cm-property': 'oklch(0.82 0.09 210)',
    '--cm-type': 'oklch(0.84 0.12 90)',
    '--cm-punctuation': 'oklch(0.8 0.01 265)',
    '--cm-invalid': 'oklch(0.72 0.18 25)',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': {
    fontFamily: 'var(--font-mono, ui-monospace, SFMono-Regular, Menlo, monospace)',
    lineHeight: '1.5',
  },
  '.cm-content': { padding: '6px 0', caretColor: 'var(--foreground)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--foreground)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
    backgroundColor: 'color-mix(in oklch, var(--primary) 25%, transparent)',
  },
  '.cm-gutters': {
    backgroundColor: 'var(--muted)',
    color: 'var(--muted-foreground)',
    border: 'none',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in oklch, var(--muted) 60%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--accent, var(--muted))' },
  '.cm-placeholder': { color: 'var(--muted-foreground)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--popover)',
    color: 'var(--popover-foreground)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-foreground)',
  },
  '.cm-tooltip-autocomplete > ul': { fontFamily: 'inherit' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--destructive)' },
  '.cm-lintRange-error': {
    backgroundImage: 'none',
    textDecoration: 'underline wavy var(--destructive)',
    textUnderlineOffset: '3px',
  },
})

/** Text with {{variables}}: the app's font, wrapped lines. */
const proseTheme = EditorView.theme({
  '.cm-scroller': { fontFamily: 'inherit', fontSize: '0.875rem' },
  '.cm-content': { padding: '8px 12px' },
})

function languageOf(lang: string): Extension {
  switch (lang) {
    case 'javascript':
      return javascript()
    case 'typescript':
      return javascript({ typescript: true })
    case 'json':
      return json()
    case 'sql':
      return sql()
    default:
      return []
  }
}

/** Problems of the text before it runs: a parse error of JavaScript or JSON. */
function problemsOf(
  text: string,
  lang: string,
  syntax: VariableSyntax | undefined
): Omit<CodeProblem, 'message' | 'line'>[] {
  if (text.trim() === '') return []
  if (lang === 'json') {
    const problem = jsonProblem(text, syntax === 'braces')
    return problem ? [problem] : []
  }
  if (lang === 'javascript' || lang === 'typescript') {
    const source = syntax === 'braces' ? referencesAsNames(text) : text
    const parser =
      lang === 'typescript'
        ? javascriptLanguage.parser.configure({ dialect: 'ts' })
        : javascriptLanguage.parser
    const found: Omit<CodeProblem, 'message' | 'line'>[] = []
    parser.parse(source).iterate({
      enter(node) {
        // The first error is the one to fix: the parser's recovery makes the rest noise.
        if (found.length === 0 && node.type.isError) found.push({ from: node.from, to: node.to })
        return found.length === 0
      },
    })
    return found
  }
  return []
}

/**
 * The `{{` completion (expressions.ts): a choice replaces the open reference; a node or run
 * data leaves it open and the list goes on with their fields; "Create variable" makes it.
 */
function expressionCompletions(config: CodeEditorConfig) {
  return (context: CompletionContext): CompletionResult | null => {
    const before = context.matchBefore(OPEN_REFERENCE)
    if (!before) return null
    const suggestions = config.suggest(before.text.slice(2))
    if (suggestions.length === 0) return null
    const options: Completion[] = suggestions.map((suggestion, index) => ({
      label: suggestion.create ? config.createLabel(suggestion.create) : suggestion.label,
      detail:
        suggestion.kind === 'field'
          ? suggestion.detail
          : suggestion.kind === 'variable'
            ? undefined
            : config.kindLabel(suggestion.kind),
      type: suggestion.kind === 'field' ? 'property' : 'variable',
      // The list's order is the suggestions' (variables, run data, nodes, then create).
      boost: -index,
      apply: (view, _completion, _from, to) => {
        let chosen = suggestion
        if (suggestion.create) {
          const name = config.createVariable(suggestion.create)
          if (!name) return
          chosen = { ...suggestion, text: name }
        }
        const text = view.state.doc.toString()
        const next = applySuggestion(text, to, chosen)
        if (!next) return
        view.dispatch({
          changes: { from: 0, to: text.length, insert: next.text },
          selection: { anchor: next.cursor },
          userEvent: 'input.complete',
        })
        if (chosen.open) startCompletion(view)
      },
    }))
    // Filtered by expressions.ts already: CodeMirror keeps the order and every option.
    return { from: before.from + 2, options, filter: false }
  }
}

function variableCompletions(config: CodeEditorConfig) {
  const expressions = expressionCompletions(config)
  return (context: CompletionContext): CompletionResult | null => {
    if (config.variableSyntax === 'names') {
      const names = config.variableNames()
      if (names.length === 0) return null
      const word = context.matchBefore(/[\w$]*/)
      if (!word || (word.from === word.to && !context.explicit)) return null
      const options = names
        .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name))
        .map((name) => ({ label: name, type: 'variable', boost: 10 }))
      return { from: word.from, options, validFor: /^[\w$]*$/ }
    }
    // Script code reads variables by name and is not substituted: `{{` means nothing there.
    if (config.variableSyntax === 'braces' || config.lang === 'json') return expressions(context)
    return null
  }
}

/**
 * A key of run data dropped into code that reads variables by name (a script) goes in as
 * the code that reads it (reference_code.ts): `{{...}}` is not substituted there.
 */
const referenceDrop = EditorView.domEventHandlers({
  drop(event, view) {
    if (view.state.readOnly || !event.dataTransfer) return false
    const code = referenceAsCode(event.dataTransfer.getData('text/plain'))
    if (!code) return false
    event.preventDefault()
    const at = view.posAtCoords({ x: event.clientX, y: event.clientY }, false)
    view.focus()
    view.dispatch({
      changes: { from: at, insert: code },
      selection: { anchor: at + code.length },
      userEvent: 'input.drop',
    })
    return true
  },
})

export function createCodeEditor(config: CodeEditorConfig): CodeEditorHandle {
  const readOnly = new Compartment()
  const attributes = new Compartment()
  // Set while the value is replaced from outside, so that it is not echoed back.
  let external = false

  const lint = linter(
    (view) => {
      const text = view.state.doc.toString()
      const problems = problemsOf(text, config.lang, config.variableSyntax).map((problem) => {
        const line = view.state.doc.lineAt(problem.from).number
        const message =
          config.lang === 'json' ? config.labels.invalidJson(line) : config.labels.syntaxError(line)
        return { ...problem, line, message }
      })
      config.onProblems(problems)
      return problems.map((problem): Diagnostic => {
        // An error at the end (a missing bracket) has no width: underline the last character.
        const from = Math.min(problem.from, Math.max(0, view.state.doc.length - 1))
        const to = Math.max(problem.to, Math.min(from + 1, view.state.doc.length))
        return { from, to, severity: 'error', message: problem.message }
      })
    },
    { delay: 300 }
  )

  const completions = { autocomplete: variableCompletions(config) }
  const extensions: Extension[] = [
    history(),
    drawSelection(),
    highlightActiveLine(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    syntaxHighlighting(highlight),
    autocompletion({ activateOnTyping: true, icons: false }),
    // One source for the editor's life: the completion keeps results by source identity.
    EditorState.languageData.of(() => [completions]),
    lint,
    // Tab indents; Escape then Tab leaves the editor (CodeMirror's tab focus mode).
    keymap.of([
      ...closeBracketsKeymap,
      ...completionKeymap,
      ...searchKeymap,
      ...historyKeymap,
      ...defaultKeymap,
      indentWithTab,
    ]),
    languageOf(config.lang),
    theme,
    readOnly.of(EditorState.readOnly.of(config.readOnly)),
    attributes.of(EditorView.contentAttributes.of(config.contentAttributes)),
    EditorView.updateListener.of((update) => {
      if (update.docChanged && !external) config.onChange(update.state.doc.toString())
      if (update.focusChanged && update.view.hasFocus) config.onFocus()
    }),
  ]
  if (config.variableSyntax === 'names') extensions.push(referenceDrop)
  if (config.prose) extensions.push(proseTheme, EditorView.lineWrapping)
  else extensions.push(lineNumbers(), highlightActiveLineGutter())
  if (config.placeholder) extensions.push(placeholderExtension(config.placeholder))

  const view = new EditorView({
    parent: config.parent,
    state: EditorState.create({
      doc: config.value,
      // Clamped: a selection past the end of the text would throw.
      selection: config.selection && {
        anchor: Math.min(config.selection.anchor, config.value.length),
        head: Math.min(config.selection.head, config.value.length),
      },
      extensions,
    }),
  })
  if (config.focus) view.focus()

  return {
    setValue(text) {
      const current = view.state.doc.toString()
      if (current === text) return
      external = true
      try {
        view.dispatch({ changes: { from: 0, to: current.length, insert: text } })
      } finally {
        external = false
      }
    },
    setReadOnly(next) {
      view.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(next)) })
    },
    setAttributes(next) {
      view.dispatch({ effects: attributes.reconfigure(EditorView.contentAttributes.of(next)) })
    },
    insertVariable(name) {
      const insert = config.variableSyntax === 'names' ? name : `{{${name}}}`
      const { from, to } = view.state.selection.main
      view.dispatch({
        changes: { from, to, insert },
        selection: { anchor: from + insert.length },
        userEvent: 'input',
        scrollIntoView: true,
      })
      view.focus()
    },
    destroy() {
      view.destroy()
    },
  }
}
