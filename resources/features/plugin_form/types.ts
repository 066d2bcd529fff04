/**
 * The form description the server derives from a plugin declaration (app/plugins/derive.ts),
 * as the browser receives it, and what the form works with: the SDK package's declarations
 * (a plugin's form.tsx receives the same, `@flowcraft/sdk/forms`). Type-only: erased by Vite.
 */
export type {
  FormCredentials,
  FormDescription,
  FormErrors,
  FormField,
  FormVariable,
  PluginFormProps,
  VariableFieldProps,
} from '../../../packages/sdk/src/form_types'
export type { ShowIf } from '../../../app/plugins/fields'
