/**
 * `#sdk/forms`: what a plugin's custom form.tsx may use from the editor: the generated form
 * (to render part of it), the props a custom form receives, the button primitive and the
 * app's JSON fetch helper. Browser only. See docs/plugins.md.
 */
export type { CustomFormProps } from '~/features/plugin_form/block_form'
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
export { Button } from '~/components/ui/button'
export { HttpError, jsonFetch } from '~/lib/http'
