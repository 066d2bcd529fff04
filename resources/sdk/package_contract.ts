/**
 * The SDK package declares `@flowcraft/sdk/forms` and `@flowcraft/sdk/viewer`
 * (packages/sdk/src/forms.ts, viewer.ts): a plugin package type-checks against those
 * declarations, and the app's bundle runs its own modules in their place (forms.ts and
 * viewer.ts beside this file, by an alias in vite.config.ts). Nothing at run time would notice
 * the two drifting apart, so `npm run typecheck` does: this file is imported by nothing and
 * compiles only while
 *
 * - the app exports a value for every value the package declares, of a type that fits the
 *   declaration (a plugin calling it as declared calls the app's code correctly), and no value
 *   the package does not declare (what folder plugins may use, package plugins may too);
 * - the types the app hands to a plugin (the props of a form.tsx or a viewer.tsx) and those
 *   a plugin hands back are the same on both sides, member for member.
 */
import type * as DeclaredForms from '../../packages/sdk/src/forms'
import type * as DeclaredViewer from '../../packages/sdk/src/viewer'
import type * as Forms from './forms'
import type * as Viewer from './viewer'

/** Compiles only when `Implemented` can stand wherever `Declared` is expected. */
type Implements<Declared, Implemented extends Declared> = Implemented
/** True when A and B are one type (same members, same optionality), not merely compatible. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Holds<T extends true> = T

export type FormsContract = [
  Implements<typeof DeclaredForms, typeof Forms>,
  Holds<Same<keyof typeof DeclaredForms, keyof typeof Forms>>,
  Holds<Same<DeclaredForms.CustomFormProps, Forms.CustomFormProps>>,
  Holds<Same<DeclaredForms.PluginFormProps, Forms.PluginFormProps>>,
  Holds<Same<DeclaredForms.FormField, Forms.FormField>>,
  Holds<Same<DeclaredForms.FormDescription, Forms.FormDescription>>,
  Holds<Same<DeclaredForms.FormVariable, Forms.FormVariable>>,
  Holds<Same<DeclaredForms.FormCredentials, Forms.FormCredentials>>,
  Holds<Same<DeclaredForms.FormErrors, Forms.FormErrors>>,
  Holds<Same<DeclaredForms.VariableFieldProps, Forms.VariableFieldProps>>,
  Holds<Same<DeclaredForms.TestOutcome, Forms.TestOutcome>>,
  Holds<Same<DeclaredForms.HttpRequestTestFormProps, Forms.HttpRequestTestFormProps>>,
  Holds<Same<DeclaredForms.ButtonProps, Forms.ButtonProps>>,
  Holds<Same<DeclaredForms.JsonFetchOptions, Forms.JsonFetchOptions>>,
]

export type ViewerContract = [
  Implements<typeof DeclaredViewer, typeof Viewer>,
  Holds<Same<keyof typeof DeclaredViewer, keyof typeof Viewer>>,
  Holds<Same<DeclaredViewer.ChatInputProps, Viewer.ChatInputProps>>,
  Holds<Same<DeclaredViewer.ChatInput, Viewer.ChatInput>>,
  Holds<Same<DeclaredViewer.ChatAnswer, Viewer.ChatAnswer>>,
  Holds<Same<DeclaredViewer.UploadProgress, Viewer.UploadProgress>>,
  Holds<Same<DeclaredViewer.Item, Viewer.Item>>,
  Holds<Same<DeclaredViewer.Comparison, Viewer.Comparison>>,
  Holds<Same<DeclaredViewer.ConditionContent, Viewer.ConditionContent>>,
  Holds<Same<DeclaredViewer.FieldKind, Viewer.FieldKind>>,
  Holds<Same<DeclaredViewer.ClassValue, Viewer.ClassValue>>,
]
