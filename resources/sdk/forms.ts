/**
 * `#sdk/forms`: what a plugin's custom form.tsx may use from the editor: the generated form
 * (to render part of it), the props a custom form receives, the button primitive and the
 * app's JSON fetch helper. Browser only. See docs/plugins.md.
 *
 * The app's implementation of the SDK package's `@flowcraft/sdk/forms` (packages/sdk/src/
 * forms.ts declares it; a plugin package's form imports that name and the bundle resolves it
 * here, vite.config.ts). package_contract.ts checks that both name the same things.
 */
export type { CustomFormProps } from '~/features/plugin_form/block_form'
export type {
  FormCredentials,
  FormDescription,
  FormErrors,
  FormField,
  FormVariable,
  PluginFormProps,
  VariableFieldProps,
} from '~/features/plugin_form/types'
export { PluginForm } from '~/features/plugin_form/plugin_form'
export {
  BlockTestForm,
  useBlockTest,
  VariablesSet,
  type TestOutcome,
} from '~/features/plugin_form/block_test_form'
export {
  HttpRequestTestForm,
  type HttpRequestTestFormProps,
} from '~/features/plugin_form/http_request_test_form'
export { Button, type ButtonProps } from '~/components/ui/button'
export { HttpError, jsonFetch, type JsonFetchOptions } from '~/lib/http'
